package import AffixScheduling

/// A frame source on virtual time, advanced by hand: frames arrive only when a test advances
/// the clock, so every test that animates or simulates runs the same frames on every
/// machine.
package struct VirtualFrames: Sendable {
  /// The virtual time the frame source's timer runs on.
  package let clock = VirtualClock()
  /// The frame source, ticking on ``clock``.
  package let source: FrameSource

  /// 100 frames a second unless given, so that frames fall on round numbers of milliseconds.
  package init(framesPerSecond: Int = 100) {
    source = FrameSource(clock: clock, framesPerSecond: framesPerSecond)
  }

  /// Advances virtual time by `seconds`, rounded to the millisecond.
  package func advance(_ seconds: Double) {
    clock.advance(by: .milliseconds(Int((seconds * 1000).rounded())))
  }

  /// Advances virtual time by `milliseconds`.
  package func advance(milliseconds: Int) {
    clock.advance(by: .milliseconds(milliseconds))
  }

  /// Advances virtual time by `count` frames.
  package func frames(_ count: Int) {
    clock.advance(by: source.interval * count)
  }

  /// Runs frames until nothing is scheduled, at most `maxSteps`; returns how many ran.
  @discardableResult
  package func settle(maxSteps: Int = 10_000) -> Int {
    clock.runUntilIdle(maxSteps: maxSteps)
  }
}
