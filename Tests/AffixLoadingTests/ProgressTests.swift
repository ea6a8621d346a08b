import Affix
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AffixLoading

/// Grace 300 ms, minimum show 500 ms, a tick every 50 ms: the defaults.
@MainActor @Suite struct TickingTests {
  let scheduler = VirtualClock()

  @Test func anIndicatorThatWantsNoTicksGetsNoTimer() {
    let indicator = RecordingIndicator(wantsTicks: false)
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start(message: "Saving")
    scheduler.advance(by: .milliseconds(300))
    #expect(indicator.isShown)
    #expect(scheduler.pendingCount == 0)  // no repeating timer was scheduled
    scheduler.advance(by: .seconds(5))
    #expect(indicator.tickCount == 0)
    controller.stop()
    scheduler.advance(by: .seconds(1))
    #expect(indicator.transitions == [.appear(message: "Saving"), .disappear(outcome: .success)])
  }

  @Test func anIndicatorThatWantsTicksGetsThemEveryInterval() {
    let indicator = RecordingIndicator(wantsTicks: true)
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start()
    scheduler.advance(by: .milliseconds(300))
    #expect(scheduler.pendingCount == 1)  // the tick timer
    scheduler.advance(by: .milliseconds(200))
    #expect(indicator.tickCount == 4)
    controller.stop()
  }

  @Test func tickingIsOffByDefault() {
    final class Quiet: LoadingIndicator {
      func appear(message: String?) {}
      func disappear(outcome: LoadingOutcome) {}
    }
    #expect(!Quiet().wantsTicks)
    #expect(TerminalSpinner(isTerminal: false) { _ in }.wantsTicks)
  }
}

@MainActor @Suite struct ProgressTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator(wantsTicks: false)
  let controller: LoadingController

  init() {
    controller = LoadingController(indicator: indicator, clock: scheduler)
  }

  @Test func progressIsIndeterminateUntilTheWorkReportsAFraction() {
    controller.start(message: "Upload")
    scheduler.advance(by: .milliseconds(300))
    #expect(indicator.events == [.appear(message: "Upload")])
    controller.update(progress: 0.25)
    controller.update(progress: 0.25)  // unchanged: not sent again
    controller.update(progress: 0.5)
    controller.update(progress: nil)
    #expect(
      indicator.events == [
        .appear(message: "Upload"), .progress(0.25), .progress(0.5), .progress(nil),
      ])
    controller.stop()
  }

  @Test func progressReportedBeforeTheIndicatorAppearsIsShownWithIt() {
    controller.start()
    controller.update(progress: 0.4)
    #expect(indicator.events.isEmpty)
    scheduler.advance(by: .milliseconds(300))
    #expect(indicator.events == [.appear(message: nil), .progress(0.4)])
    controller.stop()
  }

  @Test func fractionsOutsideTheRangeAreClampedAndNonFiniteOnesIgnored() {
    let log = DiagnosticLog()
    controller.start()
    scheduler.advance(by: .milliseconds(300))
    log.capture {
      controller.update(progress: 1.5)
      controller.update(progress: -1)
      controller.update(progress: .nan)
    }
    #expect(indicator.events.dropFirst() == [.progress(1), .progress(0)])
    #expect(log.all.count == 1)
    controller.stop()
  }

  @Test func eachNewPieceOfWorkStartsIndeterminate() {
    controller.start()
    controller.update(progress: 0.9)
    controller.stop()
    controller.start()
    scheduler.advance(by: .milliseconds(300))
    #expect(indicator.events == [.appear(message: nil)])
    controller.stop()
  }

  @Test func workStartedWhileTheIndicatorFinishesStartsIndeterminate() {
    controller.start()
    scheduler.advance(by: .milliseconds(300))
    controller.update(progress: 1)
    controller.stop()  // finishing: stays for the minimum show time
    controller.start()
    #expect(indicator.events.last == .progress(nil))
    controller.stop()
  }

  @Test func progressWithNothingLoadingIsReported() {
    let log = DiagnosticLog()
    log.capture { controller.update(progress: 0.5) }
    #expect(log.all.count == 1)
  }

  @Test func aFoundationProgressIsFollowedAtEachTick() {
    let progress = Progress(totalUnitCount: 4)
    controller.start()
    controller.follow(progress)  // 0 of 4: determinate
    scheduler.advance(by: .milliseconds(300))
    #expect(indicator.events == [.appear(message: nil), .progress(0)])

    #expect(scheduler.pendingCount == 1)  // following needs ticks, though the indicator does not
    progress.completedUnitCount = 2
    scheduler.advance(by: .milliseconds(50))
    progress.completedUnitCount = 3
    scheduler.advance(by: .milliseconds(50))
    scheduler.advance(by: .milliseconds(50))  // unchanged: nothing sent
    #expect(indicator.events.dropFirst(2) == [.progress(0.5), .progress(0.75)])
    #expect(indicator.tickCount == 0)  // read at each tick, but the indicator is not ticked
    controller.stop()
    scheduler.advance(by: .seconds(1))
    #expect(scheduler.pendingCount == 0)
  }

  @Test func anIndeterminateFoundationProgressShowsAsIndeterminate() {
    controller.start()
    scheduler.advance(by: .milliseconds(300))
    controller.update(progress: 0.5)
    controller.follow(Progress(totalUnitCount: -1))
    scheduler.advance(by: .milliseconds(50))
    #expect(indicator.events.last == .progress(nil))
    controller.stop()
  }

  @Test func aHostFollowsAProgressThroughWithLoading() async {
    let document = Document(scheduler: scheduler)
    let progress = Progress(totalUnitCount: 2)
    await document.withLoading(message: "Sync", progress: progress) {
      scheduler.advance(by: .milliseconds(300))
      progress.completedUnitCount = 1
      scheduler.advance(by: .milliseconds(50))
    }
    #expect(document.indicator.transitions.contains(.progress(0.5)))
  }
}

@MainActor @Suite struct OutcomeTests {
  struct Refused: Error {}

  @Test func aFailureCarriesTheErrorTheWorkThrew() async {
    let scheduler = VirtualClock()
    let document = Document(scheduler: scheduler)
    await #expect(throws: DiskFull.self) {
      try await document.withLoading {
        scheduler.advance(by: .seconds(1))
        throw DiskFull()
      }
    }
    scheduler.advance(by: .seconds(1))
    guard case .disappear(let outcome)? = document.indicator.transitions.last else {
      Issue.record("the indicator did not disappear")
      return
    }
    #expect(outcome.error is DiskFull)
    #expect(outcome.description == "failure: disk full")
  }

  @Test func failuresAreEqualWhenTheirErrorsAre() {
    #expect(LoadingOutcome.failure(DiskFull()) == .failure(DiskFull()))
    #expect(LoadingOutcome.failure(DiskFull()) != .failure(Refused()))
    #expect(LoadingOutcome.failure(Refused()) == .failure(Refused()))  // by description
    #expect(LoadingOutcome.failure(DiskFull()) != .success)
    #expect(Set([LoadingOutcome.failure(DiskFull()), .failure(DiskFull())]).count == 1)
    #expect(LoadingOutcome.success.error == nil)
  }
}

@MainActor @Suite struct TerminalProgressTests {
  @Test func aTerminalDrawsTheProgressAsABarAndAPercentage() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: true, frames: ["a", "b"], write: transcript.write)
    spinner.appear(message: "Fetch")
    spinner.update(progress: 0.3)
    spinner.tick(frame: 1, angle: 0.4)
    spinner.update(progress: 1)
    spinner.update(progress: nil)
    let clear = "\r\u{1B}[2K"
    let lines = transcript.all.components(separatedBy: clear).dropFirst()
    #expect(
      Array(lines) == [
        "a Fetch", "a [██████░░░░░░░░░░░░░░]  30% Fetch", "b [██████░░░░░░░░░░░░░░]  30% Fetch",
        "b [████████████████████] 100% Fetch", "b Fetch",
      ])
  }

  @Test func aPipeGetsALineEachTimeTheProgressPassesATenth() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: false, write: transcript.write)
    spinner.appear(message: "Fetch")
    for fraction in [0.05, 0.08, 0.1, 0.15, 0.35, 1] { spinner.update(progress: fraction) }
    spinner.disappear(outcome: .success)
    #expect(
      transcript.all
        == "Fetch...\nFetch: 5%\nFetch: 10%\nFetch: 35%\nFetch: 100%\nFetch: done\n")
  }
}

@MainActor @Suite struct HostlessLoadingTests {
  @Test func withLoadingNeedsNoHostAndEndsWithTheWorksOutcome() async {
    let scheduler = VirtualClock()
    let indicator = RecordingIndicator(wantsTicks: false)
    let made = Mutex<LoadingController?>(nil)
    let job = Task {
      await withLoading(message: "Index", indicator: indicator, clock: scheduler) {
        loading in
        made.withLock { $0 = loading }
        scheduler.advance(by: .milliseconds(300))
        loading.update(progress: 0.5)
        return 42
      }
    }
    // The work has returned once `withLoading` waits for the indicator's last line.
    #expect(await eventually { made.withLock({ $0?.waiterCount ?? 0 }) > 0 })
    scheduler.advance(by: .seconds(1))
    #expect(await job.value == 42)
    #expect(
      indicator.events == [
        .appear(message: "Index"), .progress(0.5), .disappear(outcome: .success),
      ])
  }

  @Test func withLoadingRethrowsAfterShowingTheFailure() async {
    let scheduler = VirtualClock()
    let indicator = RecordingIndicator(wantsTicks: false)
    let made = Mutex<LoadingController?>(nil)
    let job = Task {
      try await withLoading(indicator: indicator, clock: scheduler) { loading in
        made.withLock { $0 = loading }
        scheduler.advance(by: .seconds(1))
        throw DiskFull()
      }
    }
    #expect(await eventually { made.withLock({ $0?.waiterCount ?? 0 }) > 0 })
    #expect(indicator.isShown)  // still on screen: withLoading has not returned
    scheduler.advance(by: .seconds(1))
    await #expect(throws: DiskFull.self) { try await job.value }
    #expect(indicator.transitions.last == .disappear(outcome: .failure(DiskFull())))
  }

  /// A command-line program's main thread doing synchronous work: the indicator still draws,
  /// on the loading queue. Bounded real time is the property tested.
  @MainActor @Test func theIndicatorDrawsWhileTheCallersThreadIsBusy() async {
    let indicator = SignallingIndicator()
    let options = LoadingOptions(graceTime: .zero, minimumShowTime: .zero)
    let appeared = await withLoading(message: "Indexing", indicator: indicator, options: options) {
      _ in
      // Blocks the main actor, as synchronous work in `main.swift` would.
      indicator.appeared.wait(timeout: .now() + .seconds(30))
    }
    #expect(appeared == .success)
  }
}

/// Signals a semaphore when it appears.
private final class SignallingIndicator: LoadingIndicator, Sendable {
  let appeared = Semaphore()

  func appear(message: String?) { appeared.signal() }
  func disappear(outcome: LoadingOutcome) {}
}

/// A Dispatch semaphore, which is thread-safe but not declared `Sendable` on Linux.
private struct Semaphore: @unchecked Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  func signal() { semaphore.signal() }

  func wait(timeout: DispatchTime) -> DispatchTimeoutResult { semaphore.wait(timeout: timeout) }
}
