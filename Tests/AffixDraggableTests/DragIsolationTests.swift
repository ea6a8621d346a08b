import Affix
import AffixDraggable
import AffixTestSupport
import Foundation
import Testing

/// A main-actor view: `Sendable`, so its controller reaches any actor, though its centre may
/// not.
@MainActor private final class Tile: @MainActor Draggable {
  var center = CGPoint(x: 10, y: 10)
}

/// An actor that feeds a main-actor view's drag.
private actor Gesture {
  func feed(_ controller: DragController) -> DiagnosticLog {
    // Captures `self`, so that the closure runs isolated to this actor.
    DiagnosticLog.capture {
      _ = self
      controller.drag(.began(at: CGPoint(x: 0, y: 0)))
    }
  }
}

/// A drag's events read the object's centre, so they come from where the object lives.
@MainActor @Suite struct DragIsolationTests {
  @Test func eventsFromAnotherActorAreReportedAndChangeNothing() async throws {
    let world = VirtualWorld()
    let tile = Tile()
    tile.makeDraggable(world: world.world)
    let controller = try #require(tile.dragController)
    let log = await Gesture().feed(controller)
    #expect(log.count == 1)
    #expect(log.messages.first?.contains("lives on MainActor") == true, "\(log.messages)")
    #expect(!controller.isDragging)
    // From the main actor the same event begins the drag.
    tile.drag(.began(at: CGPoint(x: 0, y: 0)))
    #expect(controller.isDragging)
  }
}
