import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@MainActor @Suite("A released body in flight, settling and removed")
struct DragLifecycleTests {
  @Test("Changing the damping while snapping changes the snap in flight, as UISnapBehavior's")
  func changingTheDampingChangesTheSnapInFlight() {
    func overshoot(changingDampingTo damping: Double?) -> Double {
      let virtual = VirtualWorld()
      let card = Card(at: CGPoint(x: 0, y: 0))
      let controller = card.makeDraggable(snap: .snap(damping: 0.1), world: virtual.world)
      card.drag(.began(at: .zero))
      card.drag(.changed(to: CGPoint(x: 100, y: 0)))
      virtual.frames(5)
      card.drag(.ended(velocity: .zero))
      virtual.frames(2)
      if let damping { controller.snap = .snap(damping: damping) }
      var lowest = Double.infinity
      for _ in 0..<600 {
        virtual.frames(1)
        lowest = min(lowest, Double(card.center.x))
      }
      #expect(
        controller.body.behavior == .snap(Snap(to: .zero, spring: .snap(damping: damping ?? 0.1))))
      return -lowest
    }
    let bouncy = overshoot(changingDampingTo: nil)
    let calmed = overshoot(changingDampingTo: 1)
    #expect(bouncy > 10)
    #expect(calmed < 1e-9)
  }

  @Test("settled() returns once the released object rests at its snap point")
  func settledReturnsAtRest() async {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    let controller = card.makeDraggable(world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    virtual.frames(5)
    card.drag(.ended(velocity: CGPoint(x: 300, y: 0)))
    let waiting = Task {
      await controller.settled()
      return controller.body.isResting
    }
    #expect(await eventually { virtual.world.settledWaiterCount > 0 })
    #expect(!controller.body.isResting)
    virtual.settle()
    #expect(await waiting.value)
    #expect(card.center == .zero)
  }

  @Test("settled() returns when the body leaves the world, and when its task is cancelled")
  func settledReturnsOnRemovalAndCancellation() async {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    body.snap(Snap(to: CGPoint(x: 100, y: 0)))
    let cancelled = Task { await body.settled() }
    #expect(await eventually { virtual.world.settledWaiterCount > 0 })
    cancelled.cancel()
    await cancelled.value
    #expect(!body.isResting)
    #expect(virtual.world.settledWaiterCount == 0)
    let removed = Task { await body.settled() }
    #expect(await eventually { virtual.world.settledWaiterCount > 0 })
    body.remove()
    await removed.value
    #expect(body.isRemoved)
  }

  @Test("A move handler that asks for removal removes its body")
  func moveHandlerRemoval() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero) { _ in false }
    body.snap(Snap(to: CGPoint(x: 100, y: 0)))
    virtual.frames(2)
    #expect(body.isRemoved)
  }
}
