import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Testing

/// The rows of `Docs/BadInput.md` for AffixLoading.
@MainActor @Suite struct LoadingBadInputTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator()

  @Test(arguments: [Duration(attoseconds: 1), .nanoseconds(1), .microseconds(999)])
  func aTickIntervalBelowAFrameIsRaisedToTheFloorAndReported(interval: Duration) {
    let log = DiagnosticLog()
    let controller = log.capture {
      LoadingController(
        indicator: indicator, clock: scheduler,
        options: LoadingOptions(graceTime: .zero, tickInterval: interval))
    }
    #expect(controller.options.tickInterval == LoadingOptions.minimumTickInterval)
    #expect(LoadingOptions.minimumTickInterval == .milliseconds(1))
    #expect(log.count == 1 && log.subsystems == ["loading"])
    controller.start()
    scheduler.advance(by: .milliseconds(10))
    #expect(indicator.tickCount == 10)
    controller.didEnd(.removed)
  }

  @Test(arguments: [1e308, -Double.greatestFiniteMagnitude, 4 * Double.pi + 0.5])
  func aHugeAnglePerTickTurnsWithinOneTurn(angle: Double) {
    let ticking = RecordingIndicator(wantsTicks: true)
    let controller = LoadingController(
      indicator: ticking, clock: scheduler,
      options: LoadingOptions(graceTime: .zero, anglePerTick: angle))
    controller.start()
    scheduler.advance(by: .milliseconds(200))
    let angles = ticking.events.compactMap { event -> Double? in
      if case .tick(_, let angle) = event { angle } else { nil }
    }
    #expect(angles.count == 4)
    #expect(angles.allSatisfy { $0.isFinite && (0..<(2 * Double.pi)).contains($0) })
    controller.didEnd(.removed)
  }

  @Test(arguments: [Duration.seconds(Int64.max), Duration(attoseconds: .max)])
  func aGraceTimeTooLongToPassNeverShows(grace: Duration) {
    let log = DiagnosticLog()
    let controller = log.capture {
      LoadingController(
        indicator: indicator, clock: scheduler, options: LoadingOptions(graceTime: grace))
    }
    #expect(log.count == 0)
    controller.start()
    // Any time short of the grace: a real clock never gets near it.
    scheduler.advance(by: .seconds(Int64.max / 2))
    #expect(!indicator.isShown)
    controller.stop()
    #expect(indicator.transitions.isEmpty)
    #expect(controller.state == .idle)
  }

  @Test(arguments: [Duration.seconds(Int64.max), Duration(attoseconds: .max)])
  func aMinimumShowTimeTooLongToPassKeepsTheIndicatorWithoutTrapping(minimum: Duration) {
    let controller = LoadingController(
      indicator: indicator, clock: scheduler,
      options: LoadingOptions(graceTime: .milliseconds(10), minimumShowTime: minimum))
    controller.start()
    scheduler.advance(by: .milliseconds(10))
    #expect(indicator.isShown)
    scheduler.advance(by: .seconds(1))
    controller.stop()  // `since + minimumShowTime` trapped with "Overflow in +"
    scheduler.advance(by: .seconds(1))
    #expect(indicator.isShown)
    #expect(!controller.isLoading)
    controller.didEnd(.removed)
    scheduler.advance(by: .zero)
    #expect(!indicator.isShown)
  }

  @Test(arguments: [-1, -7, Int.min, Int.max])
  func aSpinnerTickedWithAnyFrameDrawsOneOfItsFrames(frame: Int) {
    let transcript = Transcript()
    let frames = ["a", "b", "c"]
    let spinner = TerminalSpinner(isTerminal: true, frames: frames, write: transcript.write)
    spinner.appear(message: "Work")
    spinner.tick(frame: frame, angle: 0)
    let remainder = ((frame % 3) + 3) % 3
    #expect(transcript.all.hasSuffix("\(frames[remainder]) Work"))
    spinner.update(message: "More")
    #expect(transcript.all.hasSuffix("\(frames[remainder]) More"))
    spinner.disappear(outcome: .cancelled)
  }
}
