import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Dispatch
import Testing

/// Grace 300 ms, minimum show 500 ms, a tick every 50 ms turning 0.4 rad: the defaults.
@MainActor @Suite struct LoadingControllerTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator()
  let controller: LoadingController

  init() {
    controller = LoadingController(indicator: indicator, clock: scheduler)
  }

  @Test func workEndingWithinTheGraceTimeShowsNothing() {
    controller.start(message: "Saving")
    #expect(controller.state == .pending(appearsAt: .ms(300)))
    scheduler.advance(by: .milliseconds(299))
    controller.stop()
    #expect(controller.state == .idle)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(indicator.events.isEmpty)
  }

  @Test func slowWorkAppearsWhenTheGraceTimeEnds() {
    controller.start(message: "Saving")
    scheduler.advance(by: .milliseconds(299))
    #expect(indicator.events.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(controller.state == .visible(since: .ms(300)))
    #expect(indicator.events == [.appear(message: "Saving")])
  }

  @Test func visibleIndicatorTicksAtASteadyInterval() {
    controller.start()
    scheduler.advance(to: .ms(500))
    let ticks = indicator.events.dropFirst()
    #expect(ticks.count == 4)
    for (offset, event) in ticks.enumerated() {
      guard case .tick(let frame, let angle) = event else {
        Issue.record("expected a tick, got \(event)")
        continue
      }
      #expect(frame == offset + 1)
      #expect(abs(angle - 0.4 * Double(offset + 1)) < 1e-12)
    }
  }

  @Test func tickAngleWrapsToOneTurn() {
    controller.start()
    scheduler.advance(to: .ms(300 + 16 * 50))
    guard case .tick(16, let angle) = indicator.events.last else {
      Issue.record("expected tick 16, got \(String(describing: indicator.events.last))")
      return
    }
    #expect(abs(angle - (6.4 - 2 * Double.pi)) < 1e-12)
    #expect((0..<(2 * Double.pi)).contains(angle))
  }

  @Test func indicatorStaysForTheMinimumShowTime() {
    controller.start()
    scheduler.advance(to: .ms(400))
    controller.stop()
    #expect(controller.state == .finishing(since: .ms(300), until: .ms(800)))
    #expect(!controller.isLoading)
    scheduler.advance(to: .ms(799))
    #expect(indicator.isShown)
    let ticksBeforeHiding = indicator.tickCount
    #expect(ticksBeforeHiding == 9)
    scheduler.advance(to: .ms(800))
    #expect(!indicator.isShown)
    #expect(indicator.transitions == [.appear(message: nil), .disappear(outcome: .success)])
    #expect(controller.state == .idle)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(5))
    #expect(indicator.tickCount == ticksBeforeHiding)
  }

  @Test func indicatorShownLongEnoughDisappearsAtOnce() {
    controller.start()
    scheduler.advance(to: .ms(1_000))
    controller.stop(.failure(DiskFull()))
    #expect(controller.state == .finishing(since: .ms(300), until: .ms(1_000)))
    scheduler.advance(by: .zero)
    #expect(
      indicator.transitions == [.appear(message: nil), .disappear(outcome: .failure(DiskFull()))])
    #expect(controller.state == .idle)
  }

  @Test func startingWhileFinishingKeepsTheIndicatorOnScreen() {
    controller.start()
    scheduler.advance(to: .ms(400))
    controller.stop()
    scheduler.advance(to: .ms(600))
    controller.start()
    #expect(controller.state == .visible(since: .ms(300)))
    scheduler.advance(to: .ms(2_000))
    #expect(indicator.transitions == [.appear(message: nil)])
    controller.stop()
    scheduler.advance(by: .zero)
    #expect(indicator.transitions == [.appear(message: nil), .disappear(outcome: .success)])
  }

  @Test(arguments: [1, 2, 5])
  func nestedStartsNeedAsManyStops(depth: Int) {
    for _ in 0..<depth { controller.start() }
    #expect(controller.nestingDepth == depth)
    scheduler.advance(to: .ms(300))
    for remaining in (0..<depth).reversed() {
      #expect(controller.isLoading)
      controller.stop()
      #expect(controller.nestingDepth == remaining)
    }
    #expect(controller.state == .finishing(since: .ms(300), until: .ms(800)))
    scheduler.advance(to: .ms(800))
    #expect(indicator.transitions == [.appear(message: nil), .disappear(outcome: .success)])
  }

  @Test func nestedFailureMakesTheOutcomeAFailure() {
    controller.start()
    controller.start()
    scheduler.advance(to: .ms(300))
    controller.stop(.failure(DiskFull()))
    controller.stop()
    scheduler.advance(to: .ms(800))
    #expect(indicator.transitions.last == .disappear(outcome: .failure(DiskFull())))
  }

  @Test(arguments: [1, 3])
  func extraStopIsReportedAndIgnored(extraStops: Int) {
    let log = DiagnosticLog()
    controller.start()
    scheduler.advance(to: .ms(300))
    log.capture {
      controller.stop()
      for _ in 0..<extraStops { controller.stop() }
    }
    #expect(log.all.count == extraStops)
    #expect(log.all.allSatisfy { $0.subsystem == "loading" && $0.message.contains("more often") })
    #expect(controller.nestingDepth == 0)
    #expect(controller.state == .finishing(since: .ms(300), until: .ms(800)))
    scheduler.advance(to: .ms(800))
    #expect(indicator.transitions == [.appear(message: nil), .disappear(outcome: .success)])
    controller.start()
    #expect(controller.nestingDepth == 1)
  }

  @Test func stopWithoutAnyStartIsReportedAndIgnored() {
    let log = DiagnosticLog()
    log.capture { controller.stop() }
    #expect(log.all.count == 1)
    #expect(controller.state == .idle)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func messageComesFromTheFirstStart() {
    controller.start(message: "Outer")
    controller.start(message: "Inner")
    scheduler.advance(to: .ms(300))
    #expect(indicator.events.first == .appear(message: "Outer"))
  }

  @Test func zeroGraceTimeAppearsAtTheNextTurn() {
    let controller = LoadingController(
      indicator: indicator, clock: scheduler, options: LoadingOptions(graceTime: .zero))
    controller.start()
    #expect(indicator.events.isEmpty)
    scheduler.advance(by: .zero)
    #expect(indicator.events == [.appear(message: nil)])
  }

  @Test func restartingAfterAnEndedLoadBeginsAfresh() {
    controller.start()
    scheduler.advance(to: .ms(300))
    controller.stop()
    scheduler.advance(to: .ms(800))
    controller.start(message: "Again")
    #expect(controller.state == .pending(appearsAt: .ms(1_100)))
    scheduler.advance(to: .ms(1_150))
    #expect(indicator.transitions.last == .appear(message: "Again"))
    #expect(indicator.events.last == .tick(frame: 1, angle: 0.4))
  }

  @Test func concurrentBalancedStartsAndStopsLeaveNothingBehind() {
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
      controller.start()
      controller.stop()
    }
    #expect(controller.nestingDepth == 0)
    #expect(controller.state == .idle)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(indicator.events.isEmpty)
  }

  @Test func concurrentStopsRacingTheAppearanceLeaveAConsistentState() {
    for _ in 0..<100 { controller.start() }
    DispatchQueue.concurrentPerform(iterations: 101) { index in
      if index == 0 {
        scheduler.advance(to: .ms(300))
      } else {
        controller.stop()
      }
    }
    scheduler.advance(by: .seconds(10))
    #expect(controller.state == .idle)
    #expect(scheduler.pendingCount == 0)
    let transitions = indicator.transitions
    #expect(
      transitions.isEmpty || transitions == [.appear(message: nil), .disappear(outcome: .success)])
  }

  @Test func detachingWhileVisibleCancelsEverythingAndClearsTheIndicator() {
    controller.start()
    scheduler.advance(to: .ms(400))
    controller.didEnd(.removed)
    controller.didEnd(.removed)
    #expect(controller.state == .idle)
    #expect(controller.nestingDepth == 0)
    scheduler.advance(by: .seconds(5))
    #expect(indicator.transitions == [.appear(message: nil), .disappear(outcome: .cancelled)])
    #expect(indicator.tickCount == 2)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func detachingWhilePendingShowsNothing() {
    controller.start()
    controller.didEnd(.removed)
    scheduler.advance(by: .seconds(5))
    #expect(indicator.events.isEmpty)
    #expect(scheduler.pendingCount == 0)
  }
}

@MainActor @Suite struct LoadingOptionsTests {
  @Test(
    arguments: [
      (LoadingOptions(graceTime: .milliseconds(-1)), "grace time"),
      (LoadingOptions(minimumShowTime: .seconds(-2)), "minimum show time"),
      (LoadingOptions(tickInterval: .zero), "tick interval"),
      (LoadingOptions(tickInterval: .milliseconds(-50)), "tick interval"),
      (LoadingOptions(anglePerTick: .nan), "angle per tick"),
      (LoadingOptions(anglePerTick: .infinity), "angle per tick"),
    ])
  func unusableOptionIsReportedAndReplaced(options: LoadingOptions, named name: String) {
    let log = DiagnosticLog()
    let line = #line + 2
    let controller = log.capture {
      LoadingController(
        indicator: RecordingIndicator(), clock: VirtualClock(), options: options)
    }
    #expect(log.all.count == 1)
    #expect(log.all.first?.message.contains(name) == true)
    #expect(log.all.first?.line == line, "the report names the line that made the controller")
    #expect(log.all.first?.fileID == #fileID)
    #expect(controller.options.graceTime >= .zero)
    #expect(controller.options.minimumShowTime >= .zero)
    #expect(controller.options.tickInterval > .zero)
    #expect(controller.options.anglePerTick.isFinite)
  }

  @Test func defaultsFollowTheOriginalMixin() {
    let options = LoadingOptions.standard
    #expect(options.tickInterval == .milliseconds(50))
    #expect(options.anglePerTick == 0.4)
    #expect(options.graceTime > .zero)
    #expect(options.minimumShowTime > .zero)
  }
}
