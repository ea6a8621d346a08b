// This file imports AffixDraggable alone, not AffixMotion, where `DampedSpring` is
// declared: a user who writes a snap's spring needs no second import.
import AffixDraggable
import Foundation
import Testing

@MainActor @Suite("The spring a drag takes, named with AffixDraggable alone")
struct SpringImportTests {
  @Test("a snap's spring is named and read back through the AffixDraggable import")
  func aSnapsSpringIsNamedThroughTheDraggableImport() {
    let card = Card(at: CGPoint(x: 10, y: 10))
    let spring = DampedSpring(duration: 0.4, bounce: 0.2)
    card.makeDraggable(snap: spring)
    #expect(card.dragController?.snap == spring)
    #expect(card.dragController?.snap.dampingRatio == spring.dampingRatio)
  }
}
