import Affix
import AffixLayout

/// Cards pinned before the stage exists: they attach to a tagged header that appears a moment
/// later, and a width follows an observable value.
enum LayoutScene {
  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("layout: frames pinned before the stage exists, applied when cards join")
    screen.step("Three cards pinned with no stage: below tag 1, side by side, width 12.")
    let board = stage.perform { Board() }
    screen.detail(stage.perform { board.describe() })

    screen.step("The stage appears, 60 x 20; the cards join it:")
    stage.run { board.addCards() }
    screen.detail(stage.perform { board.describe() })

    screen.step("A moment later the header, tagged 1, joins; the cards attach to it:")
    stage.run(after: .milliseconds(300)) { board.addHeader() }
    screen.detail(stage.perform { board.describe() })

    screen.step("The observed width becomes 16:")
    stage.run(after: .milliseconds(300)) { board.setWidth(16) }
    screen.detail(stage.perform { board.describe() })
  }
}

/// A card of the scene, on the main actor as a view is.
@MainActor final class LayoutCard {
  let name: String
  var frame = LayoutRect.zero

  init(_ name: String) {
    self.name = name
  }
}

extension LayoutCard: @MainActor LayoutNode {}

/// The model whose value the cards' width follows.
final class BoardModel: Sendable {}

enum CardWidthKey: ObservableKey {
  typealias Value = Double
  static var defaultValue: Double { 12 }
}

/// The stage's cards and header, pinned before the stage exists.
@MainActor final class Board {
  let model = BoardModel()
  let header = LayoutCard("header")
  let cards = [LayoutCard("a"), LayoutCard("b"), LayoutCard("c")]
  var stage: LayoutContainer?

  init() {
    header.pin.tag(1).height(4).top(1).leading(2).parent(.trailing, offset: -2)
    var previous: LayoutCard?
    for card in cards {
      card.pin.width(.observed(CardWidthKey.self, of: model)).height(6)
        .top(to: .tag(1), offset: 1)
      if let previous {
        card.pin.leading(to: previous, offset: 2)
      } else {
        card.pin.leading(2)
      }
      previous = card
    }
  }

  func addCards() {
    let stage = LayoutContainer(frame: LayoutRect(width: 60, height: 20))
    for card in cards { stage.add(card) }
    self.stage = stage
  }

  func addHeader() {
    stage?.add(header)
  }

  func setWidth(_ width: Double) {
    Associations(of: model)[CardWidthKey.self] = width
  }

  func describe() -> String {
    ([header] + cards).map { card in
      let frame = card.frame
      return "\(card.name) at (\(Int(frame.x)), \(Int(frame.y))) \(Int(frame.width))x"
        + "\(Int(frame.height))"
    }.joined(separator: ", ")
  }
}
