import AffixDancing
import AffixScheduling
import Foundation

/// A host with animatable properties, standing in for a view.
final class Box {
  var x = 0.0
  var y = 0.0
  var center = CGPoint.zero
  var color = RGBAColor.black
  var writes = 0 {
    didSet {}
  }
  var counted = 0.0 {
    didSet { writes += 1 }
  }
}

/// A frame clock on virtual time, advanced by hand: the stage every test here animates on.
struct VirtualFrames {
  let scheduler = VirtualTimeScheduler()
  let clock: FrameClock

  /// 100 frames a second unless given, so that frames fall on round numbers.
  init(framesPerSecond: Int = 100) {
    clock = FrameClock(scheduler: scheduler, framesPerSecond: framesPerSecond)
  }

  func advance(_ seconds: Double) {
    scheduler.advance(by: .milliseconds(Int((seconds * 1000).rounded())))
  }

  func advance(milliseconds: Int) {
    scheduler.advance(by: .milliseconds(milliseconds))
  }
}

/// A ``Box`` on ``VirtualFrames``.
struct ClockedBox {
  let frames: VirtualFrames
  let box = Box()

  init(framesPerSecond: Int) {
    frames = VirtualFrames(framesPerSecond: framesPerSecond)
  }

  var scheduler: VirtualTimeScheduler { frames.scheduler }
  var clock: FrameClock { frames.clock }
  var dance: Dance<Box> { Dance.of(box, clock: clock) }

  func advance(milliseconds: Int) {
    frames.advance(milliseconds: milliseconds)
  }
}
