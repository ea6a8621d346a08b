import Affix
import AffixDancing
import AffixDraggable
import AffixScheduling
import Foundation

// The library's clock types, named once: every case reaches them through these names and the
// `Stage` below, never by their own.

/// Virtual time, advanced by hand.
typealias VirtualTime = VirtualClock
/// A scheduler on a Dispatch queue.
typealias QueueTime = DispatchClock
/// A point in a scheduler's time.
typealias Instant = SchedulingInstant
/// A source of frames on a scheduler.
typealias Frames = FrameSource
/// One frame of ``Frames``.
typealias Frame = FrameSource.Frame

/// Virtual time with frames on it: everything timed in a case runs here, so that a case takes
/// the same frames on every machine and never waits for real time.
@MainActor struct Stage {
  let time: VirtualTime
  let frames: Frames

  init(framesPerSecond: Int = 100, fileID: String = #fileID, line: Int = #line) {
    time = VirtualTime()
    frames = Frames(
      clock: time, framesPerSecond: framesPerSecond, fileID: fileID, line: line)
  }

  /// Advances virtual time by `milliseconds`.
  func advance(milliseconds: Int) {
    time.advance(by: .milliseconds(milliseconds))
  }

  /// A handle on `host`'s animations, on these frames.
  func dance<Host: AnyObject>(_ host: Host, fileID: String = #fileID, line: Int = #line)
    -> Dance<Host>
  {
    Dance.of(host, frames: frames, fileID: fileID, line: line)
  }

  /// A dynamics world on these frames.
  func world(
    timeStep: Duration = .seconds(1) / 120, restThreshold: RestThreshold = .standard,
    maximumAdvance: Duration = .milliseconds(250), fileID: String = #fileID, line: Int = #line
  ) -> DynamicsWorld {
    DynamicsWorld(
      frames: frames, timeStep: timeStep, restThreshold: restThreshold,
      maximumAdvance: maximumAdvance, fileID: fileID, line: line)
  }
}

/// A frame source on `time` at `framesPerSecond`, with the caller's line.
func makeFrames(
  on time: VirtualTime, framesPerSecond: Int, fileID: String = #fileID, line: Int = #line
) -> Frames {
  Frames(clock: time, framesPerSecond: framesPerSecond, fileID: fileID, line: line)
}

/// A world with no frames of its own, advanced by hand.
func makeUnclockedWorld(
  timeStep: Duration = .seconds(1) / 120, restThreshold: RestThreshold = .standard,
  maximumAdvance: Duration = .milliseconds(250), fileID: String = #fileID, line: Int = #line
) -> DynamicsWorld {
  DynamicsWorld(
    frames: nil, timeStep: timeStep, restThreshold: restThreshold,
    maximumAdvance: maximumAdvance, fileID: fileID, line: line)
}

/// Removes the capability of `type` from `host`.
@discardableResult
func removeCapability<Host: AnyObject, C: Capability>(_ type: C.Type, from host: Host) -> C? {
  Associations(of: host).removeCapability(type)
}
