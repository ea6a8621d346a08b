import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Testing

@MainActor @Suite struct WithLoadingTests {
  let scheduler = VirtualClock()

  @Test func returnsTheResultAndEndsWithSuccess() async {
    let document = Document(scheduler: scheduler)
    let result = await document.withLoading(message: "Saving") {
      #expect(document.isLoading)
      scheduler.advance(by: .seconds(1))
      return 42
    }
    #expect(result == 42)
    #expect(!document.isLoading)
    scheduler.advance(by: .seconds(1))
    #expect(
      document.indicator.transitions == [
        .appear(message: "Saving"), .disappear(outcome: .success),
      ])
  }

  struct Broken: Error {}

  @Test func aThrownErrorEndsWithFailureAndIsRethrown() async {
    let document = Document(scheduler: scheduler)
    await #expect(throws: Broken.self) {
      try await document.withLoading {
        scheduler.advance(by: .seconds(1))
        throw Broken()
      }
    }
    #expect(!document.isLoading)
    scheduler.advance(by: .seconds(1))
    #expect(document.indicator.transitions.last == .disappear(outcome: .failure(Broken())))
  }

  @Test func cancellationEndsWithCancelled() async {
    let document = Document(scheduler: scheduler)
    await #expect(throws: CancellationError.self) {
      try await document.withLoading {
        scheduler.advance(by: .seconds(1))
        throw CancellationError()
      }
    }
    scheduler.advance(by: .seconds(1))
    #expect(document.indicator.transitions.last == .disappear(outcome: .cancelled))
  }

  @Test func fastWorkShowsNothingAndNests() async {
    let document = Document(scheduler: scheduler)
    await document.withLoading {
      await document.withLoading { #expect(document.loadingController().nestingDepth == 2) }
    }
    scheduler.advance(by: .seconds(1))
    #expect(document.indicator.events.isEmpty)
  }
}

@MainActor @Suite struct FinishedTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator()

  @Test func returnsAtOnceWhenIdle() async {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    await controller.settled()
    #expect(indicator.events.isEmpty)
  }

  @Test func returnsOnceTheFinalLineIsDrawn() async {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start(message: "Resolving")
    scheduler.advance(to: .ms(400))
    controller.stop()
    let waiting = Task { [indicator] in
      await controller.settled()
      return indicator.transitions.last
    }
    #expect(await eventually { controller.waiterCount > 0 })
    scheduler.advance(by: .seconds(1))
    #expect(await waiting.value == .disappear(outcome: .success))
  }

  @Test func returnsWhenTheWorkEndsBeforeTheIndicatorAppears() async {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start()
    let waiting = Task { await controller.settled() }
    #expect(await eventually { controller.waiterCount > 0 })
    controller.stop()
    await waiting.value
    #expect(indicator.events.isEmpty)
  }

  @Test func theDeathOfItsHostHidesTheIndicatorAndReturnsOnceThatIsDrawn() async {
    let indicator = RecordingIndicator()
    // Held by this test and by the waiting task: the host's death must reach it all the same.
    let controller: LoadingController
    let waiting: Task<RecordingIndicator.Event?, Never>
    do {
      let document = OwningDocument(scheduler: scheduler, indicator: indicator)
      controller = document.loadingController()
      document.startLoading()
      scheduler.advance(to: .ms(400))
      #expect(indicator.isShown)
      waiting = Task { [indicator, controller] in
        await controller.settled()
        return indicator.transitions.last
      }
      #expect(await eventually { controller.waiterCount > 0 })
    }
    #expect(controller.waiterCount == 1)
    scheduler.advance(by: .milliseconds(1))
    #expect(await waiting.value == .disappear(outcome: .cancelled))
    #expect(!indicator.isShown)
  }

  @Test func returnsWhenItsTaskIsCancelled() async {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start()
    scheduler.advance(to: .ms(400))
    let waiting = Task { await controller.settled() }
    #expect(await eventually { controller.waiterCount > 0 })
    waiting.cancel()
    await waiting.value
    #expect(controller.waiterCount == 0)
    #expect(indicator.isShown)
    controller.stop()
  }
}

@MainActor @Suite struct MessageTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator()

  @Test func aRestartWhileFinishingEndsWithItsOwnOutcomeAndMessage() {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start(message: "Fetching")
    scheduler.advance(to: .ms(400))
    controller.stop(.failure(DiskFull()))  // finishing: stays for the minimum show time
    controller.start(message: "Linking")
    scheduler.advance(to: .ms(500))
    controller.stop()
    scheduler.advance(by: .seconds(1))
    #expect(
      indicator.transitions == [
        .appear(message: "Fetching"), .update(message: "Linking"),
        .disappear(outcome: .success),
      ])
  }

  @Test func theMessageCanBeUpdatedWhileVisible() {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    controller.start(message: "Fetching")
    controller.update(message: "Fetching 1 of 3")  // not visible yet: shown when it appears
    scheduler.advance(to: .ms(400))
    controller.update(message: "Fetching 2 of 3")
    controller.stop()
    scheduler.advance(by: .seconds(1))
    #expect(
      indicator.transitions == [
        .appear(message: "Fetching 1 of 3"), .update(message: "Fetching 2 of 3"),
        .disappear(outcome: .success),
      ])
  }

  @Test func updatingWithNothingLoadingIsReported() {
    let controller = LoadingController(indicator: indicator, clock: scheduler)
    let log = DiagnosticLog()
    log.capture { controller.update(message: "late") }
    #expect(log.all.count == 1)
    #expect(indicator.events.isEmpty)
  }
}
