import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import Foundation
import Testing

@MainActor @Suite("Dragging, snapping home and coming to rest")
struct DraggableTests {
  @Test("A scripted drag follows the finger, then snaps home and rests")
  func scriptedDragEndsAtSnapPoint() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 100, y: 100))
    card.makeDraggable(world: virtual.world)
    #expect(!virtual.clock.isRunning, "nothing moves yet")

    card.drag(.began(at: CGPoint(x: 110, y: 105)))
    card.drag(.changed(to: CGPoint(x: 200, y: 150)))
    virtual.frames(1)
    #expect(card.center == CGPoint(x: 190, y: 145), "held at the touched point")
    #expect(card.dragController?.isDragging == true)

    card.drag(.ended(velocity: CGPoint(x: 300, y: -50)))
    virtual.settle()
    #expect(card.center == CGPoint(x: 100, y: 100))
    #expect(card.dragController?.isDragging == false)
    #expect(!virtual.world.needsFrames)
    #expect(!virtual.world.isReceivingFrames)
    #expect(!virtual.clock.isRunning)
    #expect(virtual.scheduler.pendingCount == 0)
  }

  @Test("The snap point defaults to where the object was made draggable")
  func snapPointDefaultsToStart() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 12, y: 34))
    let controller = card.makeDraggable(snapPoint: nil, world: virtual.world)
    #expect(controller.snapPoint == CGPoint(x: 12, y: 34))
    card.makeDraggable(snapPoint: CGPoint(x: 50, y: 50), world: virtual.world)
    #expect(card.dragController?.snapPoint == CGPoint(x: 50, y: 50))
    #expect(virtual.world.bodyCount == 1, "making draggable again replaces the body")
  }

  @Test("A released object snaps to an explicit snap point")
  func snapsToExplicitPoint() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(
      snapPoint: CGPoint(x: 300, y: 200), snap: .snap(damping: 0.9), world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(card.center == CGPoint(x: 300, y: 200))
  }

  @Test("A fling carries the object past its snap point", arguments: [0.0, 0.5])
  func flingOvershoots(_ damping: Double) {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 100, y: 100))
    card.makeDraggable(snap: .snap(damping: damping), world: virtual.world)
    card.drag(.began(at: CGPoint(x: 100, y: 100)))
    card.drag(.ended(velocity: CGPoint(x: 0, y: 900)))
    var lowest = 100.0
    while virtual.world.needsFrames {
      virtual.frames(1)
      lowest = max(lowest, Double(card.center.y))
    }
    #expect(lowest > 120)
    #expect(card.center == CGPoint(x: 100, y: 100))
  }

  @Test(
    "Cancelled and failed gestures snap back from rest", arguments: [DragEvent.cancelled, .failed])
  func cancelledGestureSnapsBack(_ end: DragEvent) {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 100, y: 100))
    card.makeDraggable(snap: .snap(damping: 1), world: virtual.world)
    card.drag(.began(at: CGPoint(x: 100, y: 100)))
    card.drag(.changed(to: CGPoint(x: 150, y: 100)))
    virtual.frames(1)
    card.drag(end)
    var farthest = 0.0
    while virtual.world.needsFrames {
      virtual.frames(1)
      farthest = max(farthest, Double(card.center.x))
    }
    #expect(farthest <= 150, "no fling: critically damped from rest never passes its start")
    #expect(card.center == CGPoint(x: 100, y: 100))
    #expect(card.dragController?.isDragging == false)
  }

  @Test("Bounds keep the object inside while it is dragged beyond them")
  func boundsHoldWhileDragging() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 50, y: 50))
    card.makeDraggable(bounds: CGRect(x: 0, y: 0, width: 100, height: 100), world: virtual.world)
    card.drag(.began(at: CGPoint(x: 50, y: 50)))
    card.drag(.changed(to: CGPoint(x: 400, y: -90)))
    virtual.frames(2)
    #expect(card.center == CGPoint(x: 100, y: 0))
    card.drag(.ended(velocity: CGPoint(x: 5_000, y: 0)))
    while virtual.world.needsFrames {
      virtual.frames(1)
      #expect(card.center.x <= 100)
    }
    #expect(card.center == CGPoint(x: 50, y: 50))
  }

  @Test("A spring attachment lags behind the finger instead of jumping to it")
  func springAttachmentLags() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(
      attachment: DampedSpring(frequency: 4, dampingRatio: 0.8), world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    virtual.frames(1)
    #expect(card.center.x > 0 && card.center.x < 100)
    virtual.settle()
    #expect(card.center == CGPoint(x: 100, y: 0), "rests on a finger that holds still")
    #expect(!virtual.clock.isRunning, "a held, still object needs no frames")
    card.drag(.changed(to: CGPoint(x: 120, y: 0)))
    #expect(virtual.clock.isRunning, "moving the finger wakes it")
  }

  @Test("The world holds a frame subscription only while something moves")
  func framesOnlyWhileMoving() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(world: virtual.world)
    virtual.frames(60)
    #expect(virtual.clock.wakeUps == 0)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 30, y: 0)))
    #expect(virtual.world.isReceivingFrames)
    card.drag(.ended(velocity: .zero))
    virtual.settle()
    let wakeUps = virtual.clock.wakeUps
    #expect(wakeUps > 0)
    virtual.frames(600)
    #expect(virtual.clock.wakeUps == wakeUps, "no wake-ups at rest")
  }

  @Test("An object that does not conform is made draggable through a key path")
  func runtimeAttachmentThroughKeyPath() {
    let virtual = VirtualWorld()
    let marker = Marker(at: CGPoint(x: 40, y: 40))
    let controller = DragController.attach(to: marker, center: \.centre, world: virtual.world)
    #expect(Associations(of: marker).capability(DragController.self) === controller)
    controller.drag(.began(at: CGPoint(x: 45, y: 42)))
    controller.drag(.changed(to: CGPoint(x: 85, y: 62)))
    virtual.frames(1)
    #expect(marker.centre == CGPoint(x: 80, y: 60))
    controller.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(marker.centre == CGPoint(x: 40, y: 40))
  }

  @Test("The object is authoritative when grabbed: code may have moved it")
  func grabbingReadsTheObjectsPosition() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(world: virtual.world)
    card.center = CGPoint(x: 70, y: 70)
    card.drag(.began(at: CGPoint(x: 75, y: 70)))
    card.drag(.changed(to: CGPoint(x: 80, y: 70)))
    virtual.frames(1)
    #expect(card.center == CGPoint(x: 75, y: 70))
  }

  @Test("Changing the snap point while snapping sends the object to the new point")
  func movingTheSnapPointRedirects() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    let controller = card.makeDraggable(world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    card.drag(.ended(velocity: .zero))
    virtual.frames(3)
    controller.snapPoint = CGPoint(x: 50, y: 50)
    virtual.settle()
    #expect(card.center == CGPoint(x: 50, y: 50))
  }

  @Test("removeDraggable stops the motion and the frames")
  func removeDraggableStops() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    card.drag(.ended(velocity: .zero))
    virtual.frames(3)
    let position = card.center
    card.removeDraggable()
    #expect(!card.isDraggable)
    #expect(virtual.world.bodyCount == 0)
    virtual.frames(5)
    #expect(card.center == position)
    #expect(!virtual.clock.isRunning)
    #expect(virtual.scheduler.pendingCount == 0)
  }

  @Test("A recorded trajectory follows the drag, then snaps back and ends at rest")
  func recordedTrajectoryEndsAtRest() {
    let trajectory = DragTrajectory.record(from: CGPoint(x: 10, y: 20))
    let dragging = trajectory.samples.filter { $0.phase == .dragging }
    let snapping = trajectory.samples.filter { $0.phase == .snapping }
    #expect(dragging.count == 30)
    #expect(!snapping.isEmpty)
    #expect(snapping.last?.position == CGPoint(x: 10, y: 20))
    #expect(trajectory.samples.map(\.time) == trajectory.samples.map(\.time).sorted())
    // Grabbed 20 and 10 points off-centre: the centre trails the finger by that much.
    if let held = dragging.last, let finger = held.finger {
      #expect(held.position == CGPoint(x: finger.x - 20, y: finger.y - 10))
    }
  }
}
