import Affix
import AffixLayout
import AffixTesting
import Testing

private final class Card: LayoutNode {
  var frame = LayoutRect.zero
}

private final class Model {}

private enum Width: ObservableKey {
  typealias Value = Double
  static var defaultValue: Double { 10 }
}

@MainActor @Suite(.serialized) struct LayoutLeakChecks {
  @Test(.tags(.leakCheck))
  func aStageItsNodesAndTheirDraftsDieTogether() throws {
    try expectNoLeaks { tracker in
      do {
        let model = Model()
        let stage = LayoutContainer(frame: LayoutRect(width: 100, height: 100))
        let header = Card()
        let card = Card()
        header.pin.tag(1).height(20)
        card.pin.width(.observed(Width.self, of: model)).top(to: .tag(1)).leading(to: header)
        card.pin.drafts().last?.inverted()
        stage.add(card)
        stage.add(header)
        tracker.track(model, "model")
        tracker.track(stage, "stage")
        tracker.track(card, "node")
        tracker.track(try #require(card.pin.drafts().first), "draft")
        tracker.track(try #require(header.pin.drafts().last), "inverted draft")
      }
      AssociationTable.sweep()
    }
  }

  @Test(.tags(.leakCheck))
  func aNodePinnedButNeverAddedReleasesItsDrafts() throws {
    let model = Model()
    try expectNoLeaks { tracker in
      do {
        let card = Card()
        card.pin.width(.observed(Width.self, of: model)).centerInParent()
        tracker.track(card, "node")
        tracker.track(try #require(card.pin.drafts().first), "draft")
      }
      AssociationTable.sweep()
    }
  }
}
