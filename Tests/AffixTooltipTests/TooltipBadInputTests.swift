import Affix
import AffixScheduling
import AffixTestSupport
import AffixTooltip
import Dispatch
import Testing

/// The row of `Docs/BadInput.md` for AffixTooltip: a show delay too long to pass never shows.
@MainActor @Suite struct TooltipBadInputTests {
  final class Host {
    var shown: [Bool] = []
  }

  @Test(arguments: [Duration.seconds(Int64.max), Duration(attoseconds: .max)])
  func aShowDelayTooLongToPassNeverShows(delay: Duration) {
    let scheduler = VirtualClock()
    let host = Host()
    let tooltip = TooltipController.attach(
      to: host, timing: TooltipTiming(showDelay: delay), clock: scheduler
    ) { host, shown in host.shown.append(shown) }
    tooltip.pointerEntered()
    // Any time short of the delay: a real clock never gets near it.
    scheduler.advance(by: .seconds(Int64.max / 2))
    scheduler.advance(by: .seconds(Int64.max / 4))
    #expect(!tooltip.isShown && host.shown.isEmpty)
    #expect(tooltip.isPending)
    tooltip.pointerExited()
    scheduler.advance(by: .seconds(1))
    #expect(!tooltip.isShown && !tooltip.isPending)
  }

  @Test(arguments: [Duration.seconds(-1), .nanoseconds(-1), Duration(attoseconds: .min)])
  func aNegativeDelaySetThroughAVarIsCheckedWhereTheControllerTakesIt(delay: Duration) {
    let scheduler = VirtualClock()
    var timing = TooltipTiming.standard
    timing.showDelay = delay
    timing.hideDelay = delay
    let log = DiagnosticLog()
    let tooltip = log.capture { TooltipController(timing: timing, clock: scheduler) }
    #expect(tooltip.timing.showDelay == .zero && tooltip.timing.hideDelay == .zero)
    #expect(log.count == 2 && log.subsystems == ["tooltip"])
    tooltip.pointerEntered()
    scheduler.advance(by: .zero)
    #expect(tooltip.isShown)
    #expect(DiagnosticLog.capture { _ = TooltipController(clock: scheduler) }.count == 0)
  }

  @Test func aNegativeDelayIsTakenAsZeroAndReported() {
    let log = DiagnosticLog()
    let line = #line + 1
    let timing = log.capture { TooltipTiming(showDelay: .seconds(-1), hideDelay: .nanoseconds(-1)) }
    #expect(timing.showDelay == .zero && timing.hideDelay == .zero)
    #expect(log.lines == [line, line] && log.subsystems == ["tooltip"])
    #expect(DiagnosticLog.capture { _ = TooltipTiming.standard }.count == 0)
  }

  @Test func onTheMainQueueTheDelayIsNeverHandedToDispatchAsAPastDeadline() {
    // What `DispatchClock` asks of Dispatch for the show delay: no deadline at all, where
    // `now + delay` past 2^63 ns would read as a wall-clock time in the past and fire at once.
    let uptime = DispatchTime.now().uptimeNanoseconds
    #expect(
      DispatchClock.deadline(
        after: TooltipTiming(showDelay: .seconds(Int64.max)).showDelay, now: uptime) == nil)
  }
}
