import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import AffixTesting
import Foundation
import Testing

private final class DraggedCard: Draggable {
  var center: CGPoint
  init(at center: CGPoint) { self.center = center }
}

private final class OwningCard: Draggable, AssociationOwner {
  let associationStorage = AssociationStorage()
  var center: CGPoint
  init(at center: CGPoint) { self.center = center }
}

private final class Pin {
  var centre = CGPoint(x: 5, y: 5)
}

private struct VirtualDragWorld {
  let time = VirtualFrames(framesPerSecond: 60)
  let world: DynamicsWorld

  init() {
    world = DynamicsWorld(frames: time.source)
  }

  var scheduler: VirtualClock { time.clock }
  var clock: FrameSource { time.source }
  func frames(_ count: Int) { time.frames(count) }
}

@MainActor @Test("A host that dies mid-snap loses its body and stops the frames", .tags(.leakCheck))
func hostDeathRemovesBodyAndStopsStepping() {
  let virtual = VirtualDragWorld()
  expectNoLeaks { tracker in
    do {
      let card = DraggedCard(at: .zero)
      let controller = card.makeDraggable(world: virtual.world)
      tracker.track(card, "host")
      tracker.track(controller, "drag controller")
      tracker.track(controller.body, "body")
      card.drag(.began(at: .zero))
      card.drag(.changed(to: CGPoint(x: 100, y: 0)))
      card.drag(.ended(velocity: CGPoint(x: 200, y: 0)))
      virtual.frames(2)
      #expect(virtual.world.needsFrames)
    }
    virtual.frames(1)
    #expect(virtual.world.bodyCount == 0, "the frame after its death removes the body")
    #expect(!virtual.world.needsFrames)
    #expect(!virtual.clock.isRunning)
    AssociationTable.sweep()
  }
}

@MainActor @Test("No cycle between a host and its drag state after a whole drag", .tags(.leakCheck))
func noCycleBetweenHostAndBody() {
  let virtual = VirtualDragWorld()
  expectNoLeaks { tracker in
    do {
      let card = DraggedCard(at: CGPoint(x: 10, y: 10))
      let controller = card.makeDraggable(world: virtual.world)
      tracker.track(card, "host")
      tracker.track(controller, "drag controller")
      tracker.track(controller.body, "body")
      card.drag(.began(at: CGPoint(x: 12, y: 10)))
      card.drag(.changed(to: CGPoint(x: 60, y: 40)))
      virtual.frames(3)
      card.drag(.ended(velocity: CGPoint(x: -100, y: 300)))
      virtual.scheduler.runUntilIdle()
      #expect(card.center == CGPoint(x: 10, y: 10))
    }
    AssociationTable.sweep()
  }
  #expect(virtual.world.bodyCount == 0)
}

@MainActor @Test("An owning host releases its drag state exactly at its deinit", .tags(.leakCheck))
func owningHostReleasesAtDeinit() {
  let virtual = VirtualDragWorld()
  expectNoLeaks { tracker in
    do {
      let card = OwningCard(at: .zero)
      let controller = card.makeDraggable(world: virtual.world)
      tracker.track(card, "owning host")
      tracker.track(controller, "drag controller")
      tracker.track(controller.body, "body")
      card.drag(.began(at: .zero))
    }
    #expect(virtual.world.bodyCount == 0, "no sweep needed for an owner")
  }
}

@MainActor
@Test("removeDraggable releases the drag state while the host lives on", .tags(.leakCheck))
func removeDraggableReleasesState() {
  let virtual = VirtualDragWorld()
  let card = DraggedCard(at: .zero)
  expectNoLeaks { tracker in
    do {
      let controller = card.makeDraggable(world: virtual.world)
      tracker.track(controller, "drag controller")
      tracker.track(controller.body, "body")
      card.drag(.began(at: .zero))
      card.drag(.changed(to: CGPoint(x: 30, y: 0)))
      virtual.frames(1)
    }
    card.removeDraggable()
  }
  virtual.frames(1)
  #expect(!virtual.clock.isRunning)
}

@MainActor
@Test("Runtime attachment through a key path does not retain the object", .tags(.leakCheck))
func keyPathAttachmentHoldsObjectWeakly() {
  let virtual = VirtualDragWorld()
  expectNoLeaks { tracker in
    do {
      let pin = Pin()
      let controller = DragController.attach(to: pin, center: \.centre, world: virtual.world)
      tracker.track(pin, "object")
      tracker.track(controller, "drag controller")
      controller.drag(.began(at: .zero))
      controller.drag(.changed(to: CGPoint(x: 40, y: 0)))
      virtual.frames(1)
    }
    virtual.frames(1)
    AssociationTable.sweep()
  }
  #expect(virtual.world.bodyCount == 0)
}
