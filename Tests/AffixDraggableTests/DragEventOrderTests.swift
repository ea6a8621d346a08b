import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@MainActor @Suite("Drag events out of order and bad input to a drag")
struct DragEventOrderTests {
  @Test(
    "Ending events with no drag in progress are reported and ignored",
    arguments: [
      DragEvent.changed(to: CGPoint(x: 5, y: 5)), .ended(velocity: .zero), .cancelled, .failed,
    ])
  func eventsBeforeBeganAreReported(_ event: DragEvent) {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 10, y: 10))
    card.makeDraggable(world: virtual.world)
    let log = DiagnosticLog.capture {
      card.drag(event)
      virtual.frames(5)
    }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("no drag in progress") == true)
    #expect(log.subsystems == ["drag"])
    #expect(card.center == CGPoint(x: 10, y: 10))
    #expect(card.dragController?.isDragging == false)
    #expect(!virtual.world.needsFrames)
  }

  @Test("A second began restarts the drag at its location")
  func secondBeganRestarts() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(world: virtual.world)
    let log = DiagnosticLog.capture {
      card.drag(.began(at: CGPoint(x: 0, y: 0)))
      card.drag(.changed(to: CGPoint(x: 50, y: 0)))
      virtual.frames(1)
      card.drag(.began(at: CGPoint(x: 60, y: 10)))
      card.drag(.changed(to: CGPoint(x: 70, y: 10)))
      virtual.frames(1)
    }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("while a drag is in progress") == true)
    #expect(card.dragController?.isDragging == true)
    // Grabbed at (60, 10) with the card at (50, 0): the offset is (10, 10).
    #expect(card.center == CGPoint(x: 60, y: 0))
  }

  @Test(
    "Non-finite locations are reported and leave the drag as it was",
    arguments: [Double.nan, .infinity, -.infinity])
  func nonFiniteLocationsAreIgnored(_ bad: Double) {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(world: virtual.world)
    let log = DiagnosticLog.capture {
      card.drag(.began(at: CGPoint(x: bad, y: 0)))
      #expect(card.dragController?.isDragging == false)
      card.drag(.began(at: CGPoint(x: 0, y: 0)))
      card.drag(.changed(to: CGPoint(x: 20, y: 0)))
      card.drag(.changed(to: CGPoint(x: 0, y: bad)))
      virtual.frames(1)
    }
    #expect(log.messages.count == 2)
    #expect(log.messages.allSatisfy { $0.contains("not finite") })
    #expect(card.center == CGPoint(x: 20, y: 0))
    #expect(card.center.x.isFinite && card.center.y.isFinite)
  }

  @Test("A non-finite release velocity ends the drag without a fling")
  func nonFiniteVelocityEndsWithoutFling() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(snap: .snap(damping: 1), world: virtual.world)
    let log = DiagnosticLog.capture {
      card.drag(.began(at: .zero))
      card.drag(.changed(to: CGPoint(x: 40, y: 0)))
      virtual.frames(1)
      card.drag(.ended(velocity: CGPoint(x: CGFloat.nan, y: CGFloat.infinity)))
      virtual.settle()
    }
    #expect(log.messages.count == 1)
    #expect(card.dragController?.isDragging == false)
    #expect(card.center == .zero)
  }

  @Test("Events for an object that is not draggable are reported")
  func notDraggableIsReported() {
    let card = Card(at: .zero)
    let firstLine = #line + 2
    let log = DiagnosticLog.capture {
      card.drag(.began(at: .zero))
      card.removeDraggable()
    }
    #expect(log.messages.count == 2)
    #expect(log.messages.allSatisfy { $0.contains("not draggable") })
    // Each report names the line of the call that was misused, not a line of the library.
    #expect(log.lines == [firstLine, firstLine + 1])
    #expect(log.fileIDs == ["AffixDraggableTests/DragEventOrderTests.swift"])
    #expect(!card.isDraggable)
  }

  @Test("Out-of-range snap damping is clamped with a diagnostic", arguments: [-0.5, 1.5, .nan])
  func badDampingIsReported(_ damping: Double) {
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    let log = DiagnosticLog.capture {
      card.makeDraggable(snap: .snap(damping: damping), world: virtual.world)
    }
    #expect(log.messages.count == 1)
    let kept = card.dragController?.snap.dampingRatio ?? -1
    #expect((0.1...1).contains(kept))
  }

  @Test("Events for an object that has died are reported and remove its body")
  func deadHostIsReported() {
    let virtual = VirtualWorld()
    // The controller outlives the object here because the test holds it.
    let controller = DragController.attach(
      to: Marker(at: .zero), center: \.centre, world: virtual.world)
    let log = DiagnosticLog.capture {
      controller.drag(.began(at: .zero))
      controller.drag(.changed(to: CGPoint(x: 10, y: 0)))
    }
    #expect(log.messages.count == 2)
    #expect(log.messages.first?.contains("has died") == true)
    #expect(virtual.world.bodyCount == 0)
    #expect(!virtual.world.needsFrames)
  }

  @Test(
    "An event out of order or at a non-finite point is reported at the caller's line",
    arguments: [
      [DragEvent.changed(to: CGPoint(x: 5, y: 5))], [.ended(velocity: .zero)],
      [.began(at: CGPoint(x: CGFloat.nan, y: 0))], [.began(at: .zero), .began(at: .zero)],
      [.began(at: .zero), .changed(to: CGPoint(x: 0, y: CGFloat.infinity))],
      [.began(at: .zero), .ended(velocity: CGPoint(x: CGFloat.nan, y: 0))],
    ])
  func eventReportsNameTheCallersLine(_ events: [DragEvent]) throws {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 10, y: 10))
    let controller = card.makeDraggable(world: virtual.world)
    let line = #line + 2
    let log = DiagnosticLog.capture {
      for event in events { controller.drag(event) }
    }
    #expect(log.count == 1)
    #expect(log.lines == [line])
    #expect(log.fileIDs == [#fileID])
    #expect(card.center.x.isFinite && card.center.y.isFinite)
  }
}
