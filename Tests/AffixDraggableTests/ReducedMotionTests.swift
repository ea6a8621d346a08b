import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import Foundation
import Synchronization
import Testing

@MainActor @Suite("Reduced motion")
struct ReducedMotionTests {
  /// Releases a card on two detents with a fling towards the far one; returns the card, the
  /// frames it took to rest and the announcements heard.
  private func releaseCard(reduced: Bool) -> (card: Card, frames: Int, heard: [String]) {
    ReducedMotion.$override.withValue(reduced) {
      let virtual = VirtualWorld()
      let card = Card(at: .zero)
      let controller = card.makeDraggable(
        snapPoints: [.zero, CGPoint(x: 400, y: 0)], world: virtual.world)
      let heard = Mutex<[String]>([])
      let resting = controller.body.onRest { heard.withLock { $0.append("rest") } }
      let waking = controller.body.onWake { heard.withLock { $0.append("wake") } }
      card.drag(.began(at: .zero))
      card.drag(.changed(to: CGPoint(x: 150, y: 0)))
      virtual.frames(2)
      card.drag(.ended(velocity: CGPoint(x: 800, y: 0)))
      if reduced {
        #expect(controller.body.position == CGPoint(x: 400, y: 0), "placed on its target at once")
      }
      let frames = virtual.settle()
      withExtendedLifetime((resting, waking)) {}
      return (card, frames, heard.withLock { $0 })
    }
  }

  @Test("With reduced motion a released card lands on its detent on the next frame")
  func reducedMotionPlacesTheCardAtOnce() {
    let (card, frames, heard) = releaseCard(reduced: true)
    #expect(card.center == CGPoint(x: 400, y: 0))
    #expect(frames == 1)
    #expect(heard == ["wake", "rest", "wake", "rest"], "announcements still come, in order")
  }

  @Test("Without reduced motion the same release springs over many frames to the same place")
  func withoutReducedMotionTheCardSprings() {
    let (card, frames, heard) = releaseCard(reduced: false)
    #expect(card.center == CGPoint(x: 400, y: 0))
    #expect(frames > 10)
    #expect(heard == ["wake", "rest", "wake", "rest"])
  }
}
