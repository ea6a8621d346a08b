import AffixDancing
import AffixScheduling
import Foundation
import Synchronization

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

/// Collects values from completions and callbacks that may run on any thread.
final class Recorder<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  var values: [Value] { storage.withLock { $0 } }
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
