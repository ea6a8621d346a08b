import AffixDancing
import AffixScheduling
import AffixTestSupport
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

/// A ``Box`` on ``VirtualFrames``.
struct ClockedBox {
  let frames: VirtualFrames
  let box = Box()

  init(framesPerSecond: Int) {
    frames = VirtualFrames(framesPerSecond: framesPerSecond)
  }

  var scheduler: VirtualClock { frames.clock }
  var clock: FrameSource { frames.source }
  var dance: Dance<Box> { Dance.of(box, frames: clock) }

  func advance(milliseconds: Int) {
    frames.advance(milliseconds: milliseconds)
  }
}
