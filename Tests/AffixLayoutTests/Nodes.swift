import Affix
import AffixLayout

/// A node of the tests' own: any class with a frame.
final class Card: LayoutNode {
  var frame = LayoutRect.zero

  init(frame: LayoutRect = .zero) {
    self.frame = frame
  }
}

/// A model whose observable value a draft's constant follows.
final class Model {}

enum CardWidth: ObservableKey {
  typealias Value = Double
  static var defaultValue: Double { 120 }
}

/// A stage of the given size.
func makeStage(width: Double = 320, height: Double = 200) -> LayoutContainer {
  LayoutContainer(frame: LayoutRect(width: width, height: height))
}
