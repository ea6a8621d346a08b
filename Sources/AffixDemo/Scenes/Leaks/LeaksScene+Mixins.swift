import Affix
import AffixDraggable
import AffixTesting
import Foundation
import Testing

extension LeaksScene {
  static let workingHostCount = 100

  /// Attaches every mixin's capability, at work, to short-lived objects whose class conforms
  /// to nothing, drops the objects, and shows the capabilities and their frames gone.
  static func playMixins(on stage: Stage) {
    let screen = stage.screen
    let census = Census()
    let world = DynamicsWorld(frames: stage.frameClock)
    let kinds = ["Widget"] + capabilityKinds
    let (_, report) = checkForLeaks { tracker in
      let count: (AnyObject, String) -> Void = { object, kind in
        census.track(object, as: kind)
        tracker.track(object, kind)
      }
      var widgets: [Widget] = []
      for index in 0..<workingHostCount {
        let widget = Widget(position: CGPoint(x: Double(index), y: 0))
        count(widget, "Widget")
        count(
          stage.perform { DragController.attach(to: widget, center: \.position, world: world) },
          "DragController")
        attachMore(to: widget, on: stage, count: count)
        widgets.append(widget)
      }
      // Fling each one, so that each is moving when it dies.
      for widget in widgets {
        let drag = Associations(of: widget).capability(DragController.self)
        let start = widget.position
        stage.run {
          drag?.drag(.began(at: start))
          drag?.drag(.ended(velocity: CGPoint(x: 300, y: 0)))
        }
      }
      screen.step(
        "Attached \(capabilityKinds.joined(separator: ", ")) at work to \(workingHostCount) "
          + "short-lived widgets that conform to nothing:")
      screen.detail(census.summary(kinds))
      screen.detail(clockSummary(stage, world))
      stage.pause(.milliseconds(300))

      widgets.removeAll()
      // The capabilities notice at their next frame or timer that their host is gone.
      stage.pause(.milliseconds(200))
      let swept = AssociationTable.sweep()
      screen.step("Dropped the widgets, and swept \(swept) dead hosts:")
      screen.detail(census.summary(kinds))
      screen.detail(clockSummary(stage, world))
    }
    screen.step("The leak checker agrees: " + paint(report, on: screen))
    stage.pause(.milliseconds(300))
  }

  private static func clockSummary(_ stage: Stage, _ world: DynamicsWorld) -> String {
    "frame source: \(stage.frameClock.subscriberCount) subscribers, "
      + "running: \(stage.frameClock.isRunning); bodies in the world: \(world.bodyCount)"
  }
}

/// An object from code we do not own: a position and an opacity, no conformances.
///
/// Its properties sit behind a lock because the mixins write them on the stage's queue.
final class Widget: Sendable {
  private struct State {
    var position: CGPoint
    var opacity = 1.0
  }

  private let state: LockedState<State>

  init(position: CGPoint) {
    state = LockedState(State(position: position))
  }

  var position: CGPoint {
    get { state.withLock { $0.position } }
    set { state.withLock { $0.position = newValue } }
  }

  var opacity: Double {
    get { state.withLock { $0.opacity } }
    set { state.withLock { $0.opacity = newValue } }
  }
}
