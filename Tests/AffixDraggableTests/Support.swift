import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
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

/// A world on ``VirtualFrames`` at 60 frames a second: frames arrive only when the test
/// advances the scheduler.
struct VirtualWorld {
  let time = VirtualFrames(framesPerSecond: 60)
  let world: DynamicsWorld

  init() {
    world = DynamicsWorld(frames: time.source)
  }

  var scheduler: VirtualClock { time.clock }
  var clock: FrameSource { time.source }

  /// Advances virtual time by `count` frames.
  func frames(_ count: Int) {
    time.frames(count)
  }

  /// Runs frames until the world needs none; returns how many frames that took.
  @discardableResult
  func settle() -> Int {
    time.settle(maxSteps: 60 * 30)
  }
}
