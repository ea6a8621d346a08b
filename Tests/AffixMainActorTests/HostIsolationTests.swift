import AffixDraggable
import AffixScheduling
import Foundation
import Testing

/// A main-actor view that records, in its setter, whether each write ran on the main actor.
@MainActor final class CheckedCard: @MainActor Draggable {
  var writesOffTheMainActor = 0
  var writes = 0
  var position = CGPoint(x: 0, y: 0) {
    didSet {
      writes += 1
      if !isOnMainQueue() { writesOffTheMainActor += 1 }
      MainActor.assertIsolated("a mixin wrote a main-actor host's property off the main actor")
    }
  }
}

@MainActor @Suite struct HostIsolationTests {
  @Test func aVirtualClockAdvancedOffTheMainActorWritesADraggedViewOnTheMainActor() async {
    let scheduler = VirtualTimeScheduler()
    let world = DynamicsWorld(clock: FrameClock(scheduler: scheduler))
    let card = CheckedCard()
    card.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), world: world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 40, y: 40)))
    card.drag(.ended(velocity: Vector2D(dx: 0, dy: 0)))
    // The clock's thread: a detached task, never the main actor.
    await Task.detached {
      for _ in 0..<120 { scheduler.advance(by: .seconds(1) / 60) }
    }.value
    // The writes were enqueued on the main actor; this test's awaits let them run.
    for _ in 0..<10_000 where abs(card.position.x - 100) > 1 { await Task.yield() }
    #expect(card.writes > 0)
    #expect(card.writesOffTheMainActor == 0)
    #expect(abs(card.position.x - 100) < 1)
    card.removeDraggable()
  }
}
