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

/// A ``Box`` on a frame clock driven by virtual time.
struct ClockedBox {
  let scheduler = VirtualTimeScheduler()
  let clock: FrameClock
  let box = Box()

  init(framesPerSecond: Int) {
    clock = FrameClock(scheduler: scheduler, framesPerSecond: framesPerSecond)
  }

  var dance: Dance<Box> { Dance.of(box, clock: clock) }

  func advance(milliseconds: Int) {
    scheduler.advance(by: .milliseconds(milliseconds))
  }
}
