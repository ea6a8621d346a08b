import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTestSupport
import Observation
import Synchronization
import Testing

/// `LoadingController`'s public state takes part in Swift Observation, property by property.
@MainActor @Suite struct LoadingObservationTests {
  let scheduler = VirtualClock()
  let indicator = RecordingIndicator()
  let controller: LoadingController

  init() {
    controller = LoadingController(indicator: indicator, clock: scheduler)
  }

  @Test func eachPhaseOfTheIndicatorIsAChangeOfState() {
    var changes = TrackedRead { _ = controller.state }
    controller.start(message: "Saving")
    #expect(changes.timesTold == 1, "idle to pending")
    changes = TrackedRead { _ = controller.state }
    scheduler.advance(by: .milliseconds(299))
    #expect(changes.timesTold == 0, "the grace time passing is no change")
    scheduler.advance(by: .milliseconds(1))
    #expect(changes.timesTold == 1, "pending to visible, on the scheduler's context")
    changes = TrackedRead { _ = controller.state.isVisible }
    scheduler.advance(by: .milliseconds(200))
    #expect(changes.timesTold == 0, "a tick is no change of state")
    controller.stop()
    #expect(changes.timesTold == 1, "visible to finishing")
    changes = TrackedRead { _ = controller.state }
    scheduler.advance(by: .seconds(1))
    #expect(changes.timesTold == 1, "finishing to idle")
    #expect(controller.state == .idle)
  }

  @Test func aTrackingOfOnePropertyIsNotToldOfAnother() {
    controller.start(message: "Uploading")
    scheduler.advance(by: .seconds(1))
    let message = TrackedRead { _ = controller.message }
    let progress = TrackedRead { _ = controller.progress }
    controller.update(progress: 0.5)
    #expect(message.timesTold == 0)
    #expect(progress.timesTold == 1)
    #expect(controller.progress == 0.5)
    let again = TrackedRead { _ = controller.progress }
    controller.update(progress: 0.5)
    #expect(again.timesTold == 0, "an update to the same fraction is no change")
    controller.update(message: "Almost there")
    #expect(message.timesTold == 1)
    #expect(controller.message == "Almost there")
  }

  @Test func nestingAndTheOutcomeAreTracked() {
    let loading = TrackedRead { _ = controller.isLoading }
    controller.start()
    #expect(loading.timesTold == 1)
    controller.start()
    let outcome = TrackedRead { _ = controller.outcome }
    controller.stop(.cancelled)
    #expect(outcome.timesTold == 1)
    #expect(controller.outcome == .cancelled)
    #expect(controller.nestingDepth == 1)
  }

  @Test func onChangeRunsBeforeTheChangeAndOutsideTheControllersLock() {
    controller.start()
    let seen = Mutex<(LoadingState, Int)?>(nil)
    withObservationTracking {
      _ = controller.nestingDepth
    } onChange: { [controller] in
      // Reading the controller here would deadlock if its lock were held.
      seen.withLock { $0 = (controller.state, controller.nestingDepth) }
    }
    controller.stop()
    guard let (state, depth) = seen.withLock({ $0 }) else {
      Issue.record("onChange did not run")
      return
    }
    #expect(depth == 1)
    #expect(state == .pending(appearsAt: .ms(300)))
  }

  @Test func anUnbalancedStopIsNoChange() {
    let changes = TrackedRead {
      _ = controller.state
      _ = controller.nestingDepth
      _ = controller.outcome
    }
    DiagnosticLog().capture { controller.stop(.cancelled) }
    #expect(changes.timesTold == 0)
  }

  @Test func trackingKeepsNeitherTheDocumentNorItsController() {
    weak var weakDocument: Document?
    weak var weakController: LoadingController?
    var changes: TrackedRead?
    do {
      let document = Document(scheduler: scheduler)
      weakDocument = document
      let controller = document.loadingController()
      weakController = controller
      changes = TrackedRead { _ = controller.isLoading }
    }
    #expect(isDeallocated { weakDocument })
    AssociationTable.sweep()
    #expect(isDeallocated { weakController })
    #expect(changes?.timesTold == 0)
  }
}
