import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Testing

/// The rows of `Docs/BadInput.md` for AffixScheduling: every number is used as given or
/// replaced by the nearest usable one with a report naming the caller's line.
@Suite struct SchedulingBadInputTests {
  /// The largest `Duration` there is.
  static let longest = Duration(attoseconds: .max)

  @Test func aDispatchDeadlinePastItsRangeNeverComes() {
    // Past 2^63 ns of uptime Dispatch reads a deadline as a wall-clock time in the past.
    let uptime: UInt64 = 86_400 * 1_000_000_000
    #expect(DispatchClock.deadline(after: .seconds(Int64.max), now: uptime) == nil)
    #expect(DispatchClock.deadline(after: Self.longest, now: uptime) == nil)
    let justPast = Duration.nanoseconds(Int64.max) - .nanoseconds(uptime) + .nanoseconds(1)
    #expect(DispatchClock.deadline(after: justPast, now: uptime) == nil)
    let justWithin = Duration.nanoseconds(Int64.max) - .nanoseconds(uptime) - .nanoseconds(1)
    #expect(
      DispatchClock.deadline(after: justWithin, now: uptime)?.uptimeNanoseconds
        == UInt64(Int64.max) - 1)
    #expect(
      DispatchClock.deadline(after: .seconds(1), now: uptime)?.uptimeNanoseconds
        == uptime + 1_000_000_000)
  }

  @Test func virtualTimeSaturatesAtTheTopOfDuration() {
    let scheduler = VirtualClock()
    let fired = Counter()
    let token = scheduler.schedule(after: Self.longest) { fired.increment() }
    let timer = try? scheduler.scheduleRepeating(every: .seconds(Int64.max)) { fired.increment() }
    scheduler.advance(by: Self.longest)
    scheduler.advance(by: Self.longest)  // "Overflow in +" before saturation
    #expect(scheduler.now == SchedulingInstant(sinceEpoch: Self.longest))
    // The one-off action and every timer firing up to the last instant ran; at the last
    // instant the timer's next firing saturates, and it stops instead of firing for ever.
    #expect(fired.value >= 2)
    scheduler.advance(to: SchedulingInstant(sinceEpoch: Self.longest))
    let afterwards = fired.value
    scheduler.advance(by: .seconds(1))
    #expect(fired.value == afterwards)
    #expect(SchedulingInstant(sinceEpoch: Self.longest) - .zero == Self.longest)
    #expect(
      SchedulingInstant(sinceEpoch: Duration(attoseconds: .min))
        - SchedulingInstant(
          sinceEpoch: Self.longest) == Duration(attoseconds: .min))
    withExtendedLifetime((token, timer)) {}
  }

  @Test func aRepeatIntervalBelowTheFloorIsRaisedAndReported() throws {
    let scheduler = VirtualClock()
    let fired = Counter()
    let log = DiagnosticLog()
    let line = #line + 2
    let timer = try log.capture {
      try scheduler.scheduleRepeating(every: Duration(attoseconds: 1)) { fired.increment() }
    }
    #expect(log.count == 1)
    #expect(log.lines == [line])
    #expect(log.subsystems == ["scheduling"])
    scheduler.advance(by: .microseconds(10))
    #expect(fired.value == 10)
    // Called through the requirement, the floor holds too.
    let direct = DiagnosticLog.capture {
      _ = try? scheduler.scheduleRepeating(every: .nanoseconds(1), after: nil) {}
    }
    #expect(direct.count == 1)
    #expect(VirtualClock.minimumRepeatInterval == .microseconds(1))
    timer.cancel()
  }

  @Test(arguments: [1001, 1_000_000_000, Int.max])
  func aFrameRateAboveTheMaximumIsLoweredAndReported(framesPerSecond: Int) {
    let scheduler = VirtualClock()
    let log = DiagnosticLog()
    let line = #line + 1
    let clock = log.capture { FrameSource(clock: scheduler, framesPerSecond: framesPerSecond) }
    #expect(clock.interval == .milliseconds(1))
    #expect(log.lines == [line])
    let frames = Counter()
    let subscription = clock.subscribe { _ in frames.increment() }
    scheduler.advance(by: .milliseconds(10))
    #expect(frames.value == 10)
    subscription.cancel()
  }

  @Test(arguments: [1, 60, 1000])
  func aFrameRateWithinItsBoundsIsUsedAsGiven(framesPerSecond: Int) {
    let log = DiagnosticLog()
    let clock = log.capture {
      FrameSource(clock: VirtualClock(), framesPerSecond: framesPerSecond)
    }
    #expect(log.count == 0)
    #expect(clock.interval == .seconds(1) / framesPerSecond)
  }
}
