import AffixTesting
import Dispatch
import Testing

private final class Released: Sendable {}

private final class Kept: Sendable {}

/// A semaphore that work on a queue waits on, holding what it captured until it is opened.
private struct Gate: @unchecked Sendable {
  // `@unchecked`: Dispatch semaphores are thread-safe; the Linux overlay does not say so.
  private let semaphore = DispatchSemaphore(value: 0)

  func open() { semaphore.signal() }
  func pass() { semaphore.wait() }
}

/// Holds `object` in work on a queue of its own until `gate` opens.
private func holdOnAnotherThread(_ object: Released, until gate: Gate) {
  DispatchQueue(label: "releaser").async {
    gate.pass()
    withExtendedLifetime(object) {}
  }
}

@Suite struct LeakTrackerWaitingTests {
  @Test func anObjectReleasedOnAnotherThreadIsAwaited() async {
    let gate = Gate()
    let tracker = LeakTracker()
    do {
      let object = Released()
      tracker.track(object)
      holdOnAnotherThread(object, until: gate)
    }
    #expect(!tracker.report().isClean)  // the queue's work still holds it
    gate.open()
    #expect(await tracker.report(waitingUpTo: .seconds(30)).isClean)
  }

  @Test func aCleanScopeIsReportedWithoutWaiting() async {
    let tracker = LeakTracker()
    tracker.track(Released())
    // An hour's timeout: the test ends at once only because nothing is left to wait for.
    #expect(await tracker.report(waitingUpTo: .seconds(3600)).isClean)
  }

  @Test func expectNoLeaksWaitingRecordsNothingForALateRelease() async {
    let gate = Gate()
    await expectNoLeaks(waitingUpTo: .seconds(30)) { tracker in
      let object = Released()
      tracker.track(object)
      holdOnAnotherThread(object, until: gate)
      gate.open()
    }
  }

  @Test func aSurvivorIsStillReportedOnceTheTimeIsUp() async {
    let kept = Kept()
    await withKnownIssue(.deliberateLeak) {
      await expectNoLeaks(waitingUpTo: .milliseconds(20)) { tracker in
        tracker.track(kept, "kept")
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix(#"LEAK: Kept "kept" tracked at"#) }
    }
  }

  @Test func anErrorOfTheBodyIsRethrownAfterTheCheck() async {
    struct Failed: Error {}
    await #expect(throws: Failed.self) {
      try await expectNoLeaks(waitingUpTo: .seconds(1)) { tracker in
        tracker.track(Released())
        throw Failed()
      }
    }
  }
}
