import Affix
import AffixDraggable
import AffixScheduling
import Foundation

/// A stand-in for a view: a draggable object with a centre.
final class Card: Draggable {
  var center: CGPoint
  init(at center: CGPoint) { self.center = center }
}

/// An object that does not conform to `Draggable`, made draggable at runtime.
final class Marker {
  var centre: CGPoint
  init(at centre: CGPoint) { self.centre = centre }
}

/// A world on virtual time: frames arrive only when the test advances the scheduler.
struct VirtualWorld {
  let scheduler = VirtualTimeScheduler()
  let clock: FrameClock
  let world: DynamicsWorld

  init() {
    clock = FrameClock(scheduler: scheduler, framesPerSecond: 60)
    world = DynamicsWorld(clock: clock)
  }

  /// Advances virtual time by `count` frames.
  func frames(_ count: Int) {
    scheduler.advance(by: clock.interval * count)
  }

  /// Runs frames until the world needs none; returns how many frames that took.
  @discardableResult
  func settle() -> Int {
    scheduler.runUntilIdle(maxSteps: 60 * 30)
  }
}
