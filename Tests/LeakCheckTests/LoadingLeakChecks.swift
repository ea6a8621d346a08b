import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTesting
import Testing

private final class Editor: Loading {
  let scheduler: VirtualClock
  let indicator = RecordingIndicator()

  init(scheduler: VirtualClock) {
    self.scheduler = scheduler
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { scheduler }
}

private final class OwningEditor: Loading, AssociationOwner {
  let associationStorage = AssociationStorage()
  let scheduler: VirtualClock
  let indicator = RecordingIndicator()

  init(scheduler: VirtualClock) {
    self.scheduler = scheduler
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { scheduler }
}

private final class Upload {}

@MainActor @Suite(.serialized) struct LoadingLeakChecks {
  @Test(.tags(.leakCheck))
  func hostDeathReleasesItsLoadingStateWhilePending() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      do {
        let editor = OwningEditor(scheduler: scheduler)
        editor.startLoading()
        tracker.track(editor, "host")
        tracker.track(editor.loadingController(), "controller")
        tracker.track(editor.indicator, "indicator")
      }
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func hostDeathReleasesItsLoadingStateWhileVisible() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      do {
        let editor = OwningEditor(scheduler: scheduler)
        editor.startLoading()
        scheduler.advance(by: .seconds(1))
        #expect(editor.indicator.isShown)
        tracker.track(editor, "host")
        tracker.track(editor.loadingController(), "controller")
        tracker.track(editor.indicator, "indicator")
      }
      // What is left is the visible indicator's disappearance; once run, it lets go too.
      #expect(scheduler.pendingCount == 1)
      scheduler.advance(by: .seconds(1))
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func sharedTableHostReleasesItsLoadingStateAtTheSweep() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      do {
        let editor = Editor(scheduler: scheduler)
        editor.startLoading()
        scheduler.advance(by: .seconds(1))
        tracker.track(editor, "host")
        tracker.track(editor.loadingController(), "controller")
        tracker.track(editor.indicator, "indicator")
      }
      // The dead host's next firing cancels the work; the sweep releases the controller.
      scheduler.advance(by: .seconds(1))
      AssociationTable.sweep()
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func controllerAttachedAtRunTimeDiesWithItsHost() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      do {
        let upload = Upload()
        let indicator = RecordingIndicator()
        let controller = LoadingController.attach(
          to: upload, indicator: indicator, clock: scheduler)
        controller.start()
        scheduler.advance(by: .seconds(1))
        tracker.track(upload, "host")
        tracker.track(controller, "controller")
        tracker.track(indicator, "indicator")
      }
      scheduler.advance(by: .seconds(1))
      AssociationTable.sweep()
    }
  }

  @Test(.tags(.leakCheck))
  func finishedLoadingLeavesNothingScheduled() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      let editor = OwningEditor(scheduler: scheduler)
      editor.startLoading()
      scheduler.advance(by: .seconds(1))
      editor.stopLoading()
      scheduler.advance(by: .seconds(1))
      #expect(scheduler.pendingCount == 0)
      tracker.track(editor.indicator, "indicator")
      _ = consume editor
    }
  }
}
