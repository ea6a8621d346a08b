import AffixScheduling
import AffixTestSupport
import Dispatch
import Testing

/// A wait runs in its caller's isolation: on the main actor it registers and asks whether the
/// work has ended without giving the main actor up, so an end that the main queue brings
/// meanwhile reaches it as a resume, never falls in between unseen.
@MainActor @Suite struct WaitIsolationTests {
  @Test func aWaitOnTheMainActorRegistersBeforeTheMainQueueRunsAgain() async {
    let waiters = Waiters<Int>()
    let ended = Flag()
    // Runs only once the main actor is given up: after the waiter has registered.
    DispatchQueue.main.async {
      ended.set()
      waiters.resumeAll(returning: 1)
    }
    let value = await waiters.wait(ifCancelled: -1) { ended.isSet ? 0 : nil }
    #expect(value == 1)
  }
}
