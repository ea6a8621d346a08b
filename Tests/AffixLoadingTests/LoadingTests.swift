import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Dispatch
import Foundation
import Testing

@MainActor @Suite struct LoadingTests {
  let scheduler = VirtualClock()

  @Test func conformingClassGetsStartStopAndState() {
    let document = Document(scheduler: scheduler)
    #expect(document.loadingState == .idle)
    #expect(!document.isLoading)
    document.startLoading(message: "Saving")
    #expect(document.isLoading)
    #expect(document.loadingState == .pending(appearsAt: .ms(300)))
    scheduler.advance(to: .ms(300))
    #expect(document.loadingState == .visible(since: .ms(300)))
    document.stopLoading()
    scheduler.advance(to: .ms(800))
    #expect(document.loadingState == .idle)
    #expect(
      document.indicator.transitions == [
        .appear(message: "Saving"), .disappear(outcome: .success),
      ])
  }

  @Test func misuseReportsNameTheCallersLine() throws {
    let document = Document(scheduler: scheduler)
    let log = DiagnosticLog()
    let lines = log.capture { () -> [Int] in
      document.stopLoading()
      let stopLine = #line - 1
      document.updateLoading(message: "late")
      let messageLine = #line - 1
      document.updateLoading(progress: .nan)
      let progressLine = #line - 1
      document.startLoading()
      document.loadingController().follow(Progress(totalUnitCount: 1))
      document.loadingController().update(progress: .infinity)
      let infinityLine = #line - 1
      return [stopLine, messageLine, progressLine, infinityLine]
    }
    #expect(log.all.map(\.line) == lines)
    #expect(Set(log.all.map(\.fileID)) == ["AffixLoadingTests/LoadingTests.swift"])
    document.stopLoading()
  }

  @Test func stateLivesInOneControllerAttachedToTheHost() {
    let document = Document(scheduler: scheduler)
    document.startLoading()
    document.startLoading()
    #expect(document.loadingController() === document.loadingController())
    #expect(LoadingController.attached(to: document) === document.loadingController())
    #expect(document.indicatorsMade.withLock { $0 } == 1)
    #expect(document.loadingController().nestingDepth == 2)
  }

  @Test func hostOptionsAndSchedulerAreUsed() {
    let document = Document(
      scheduler: scheduler,
      options: LoadingOptions(graceTime: .milliseconds(10), minimumShowTime: .zero))
    document.startLoading()
    scheduler.advance(to: .ms(10))
    document.stopLoading()
    scheduler.advance(by: .zero)
    #expect(
      document.indicator.transitions == [.appear(message: nil), .disappear(outcome: .success)])
  }

  @Test func controllerAttachesAtRunTimeToAnObjectThatDoesNotConform() {
    let download = Download()
    let indicator = RecordingIndicator()
    let controller = LoadingController.attach(
      to: download, indicator: indicator, clock: scheduler)
    #expect(LoadingController.attached(to: download) === controller)
    #expect(Associations(of: download).capabilities.contains { $0 === controller })
    controller.start(message: "Downloading")
    scheduler.advance(to: .ms(300))
    #expect(indicator.isShown)
    Associations(of: download).removeCapability(LoadingController.self)
    #expect(LoadingController.attached(to: download) == nil)
    scheduler.advance(by: .seconds(1))
    #expect(
      indicator.transitions == [
        .appear(message: "Downloading"), .disappear(outcome: .cancelled),
      ])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func attachingAgainReplacesAndStopsTheOldController() {
    let download = Download()
    let first = RecordingIndicator()
    let old = LoadingController.attach(to: download, indicator: first, clock: scheduler)
    old.start()
    let new = LoadingController.attach(
      to: download, indicator: RecordingIndicator(), clock: scheduler)
    #expect(LoadingController.attached(to: download) === new)
    #expect(old.state == .idle)
    scheduler.advance(by: .seconds(1))
    #expect(first.events.isEmpty)
  }

  @Test func hostDeathWhilePendingCancelsTheAppearance() {
    let indicator = RecordingIndicator()
    do {
      let document = OwningDocument(scheduler: scheduler, indicator: indicator)
      document.startLoading()
      #expect(scheduler.pendingCount == 1)
    }
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(5))
    #expect(indicator.events.isEmpty)
  }

  @Test func hostDeathWhileVisibleStopsTheTicksAndTakesTheIndicatorAway() {
    let indicator = RecordingIndicator()
    do {
      let document = OwningDocument(scheduler: scheduler, indicator: indicator)
      document.startLoading()
      scheduler.advance(to: .ms(400))
    }
    let events = indicator.events
    scheduler.advance(by: .seconds(5))
    #expect(indicator.events == events + [.disappear(outcome: .cancelled)])
    #expect(!indicator.isShown)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aVisibleIndicatorOfAHostInTheSharedTableDisappearsWhenTheHostDies() {
    let indicator = RecordingIndicator()
    do {
      let download = Download()
      let controller = LoadingController.attach(
        to: download, indicator: indicator, clock: scheduler,
        options: LoadingOptions(tickInterval: .seconds(10)))
      controller.start(message: "Fetching")
      scheduler.advance(to: .ms(400))
    }
    #expect(indicator.isShown)
    _ = AssociationTable.sweep()  // the host's values are released: the controller with them
    scheduler.advance(by: .zero)
    #expect(indicator.transitions.last == .disappear(outcome: .cancelled))
    #expect(!indicator.isShown)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func hostInTheSharedTableStopsFiringOnceDeadEvenBeforeASweep() {
    let indicator = RecordingIndicator()
    var controller: LoadingController?
    do {
      let download = Download()
      controller = LoadingController.attach(
        to: download, indicator: indicator, clock: scheduler)
      controller?.start()
    }
    scheduler.advance(by: .seconds(5))
    #expect(indicator.events.isEmpty)
    #expect(scheduler.pendingCount == 0)
    let log = DiagnosticLog()
    log.capture { controller?.start() }
    #expect(log.all.first?.message.contains("host died") == true)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func dispatchSchedulerShowsAndHidesOnARealQueue() async {
    let queue = DispatchQueue(label: "org.affix.tests.loading")
    let scheduler = DispatchClock(queue: queue)
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: scheduler,
      options: LoadingOptions(graceTime: .milliseconds(1), minimumShowTime: .zero))
    controller.start(message: "Slow")
    // The appearance is due after 1 ms; this fence is due later on the same serial queue.
    await fence(on: scheduler, after: .milliseconds(20))
    #expect(indicator.transitions == [.appear(message: "Slow")])
    controller.stop()
    await fence(on: scheduler, after: .milliseconds(5))
    #expect(indicator.transitions == [.appear(message: "Slow"), .disappear(outcome: .success)])
    #expect(controller.state == .idle)
  }

  @Test func dispatchSchedulerShowsNothingForFastWork() async {
    let queue = DispatchQueue(label: "org.affix.tests.loading-fast")
    let scheduler = DispatchClock(queue: queue)
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: scheduler,
      options: LoadingOptions(graceTime: .milliseconds(1)))
    // Started and stopped on the queue itself, so the appearance cannot have begun meanwhile.
    await withCheckedContinuation { continuation in
      scheduler.schedule(after: .zero) {
        controller.start()
        controller.stop()
        continuation.resume()
      }.detach()
    }
    await fence(on: scheduler, after: .milliseconds(20))
    #expect(indicator.events.isEmpty)
  }

  func fence(on scheduler: DispatchClock, after delay: Duration) async {
    await withCheckedContinuation { continuation in
      scheduler.schedule(after: delay) { continuation.resume() }.detach()
    }
  }
}
