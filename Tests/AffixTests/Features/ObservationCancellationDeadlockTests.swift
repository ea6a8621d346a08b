import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

/// A cancel never waits without end for a call of its observer running on another thread: that
/// call may be waiting for the cancelling thread. Each scenario here deadlocked when a cancel
/// waited for the call in flight until it left; the semaphores' deadlines bound the tests, so
/// that such a cancel fails them rather than hanging the run.
@Suite struct ObservationCancellationDeadlockTests {
  enum Number: AssociatedKey { typealias Value = Int? }
  let number = Number.self

  /// A nonisolated observer that waits for a serial queue (the main queue, in an app:
  /// `DispatchQueue.main.sync`) while a block of that queue cancels it: the cancel waited for
  /// the call, and the call for the queue.
  @Test func aCancelGivesUpOnACallThatWaitsForTheCancellingQueue() {
    let host = Host()
    let queue = DispatchQueue(label: "org.affix.tests.cancelling")
    let entered = DispatchSemaphore(value: 0)
    let queueTaken = DispatchSemaphore(value: 0)
    let callEnded = DispatchSemaphore(value: 0)
    let cancelReturned = DispatchSemaphore(value: 0)
    let calls = Atomic<Int>(0)
    let callEndedBeforeTheCancelReturned = Flag()
    let token = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        calls.add(1, ordering: .relaxed)
        entered.signal()
        queueTaken.wait()
        queue.sync {}  // waits for the block that cancels
        callEnded.signal()
      })
    startThread { Associations(of: host)[number] = 1 }
    entered.wait()
    let log = DiagnosticLog()
    queue.async {
      queueTaken.signal()
      log.capture { token.cancel() }
      // The call cannot have ended: it needs this queue, which this block still holds.
      if callEnded.wait(timeout: .now()) == .success { callEndedBeforeTheCancelReturned.set() }
      cancelReturned.signal()
    }
    #expect(
      cancelReturned.wait(timeout: .now() + .seconds(60)) == .success,
      "the cancel waits for a call that waits for the cancel's queue")
    #expect(!callEndedBeforeTheCancelReturned.isSet)
    // The call in flight ends after the cancel returned; no call starts after it.
    #expect(callEnded.wait(timeout: .now() + .seconds(60)) == .success)
    #expect(log.count == 1)
    #expect(log.subsystems == ["observation"])
    #expect(log.messages.first?.contains("may be waiting for the cancelling thread") == true)
    Associations(of: host)[number] = 2
    #expect(calls.load(ordering: .relaxed) == 1)
  }

  /// Once a cancel has given up on a call, the cancels after it return at once, without
  /// reporting it again: the call they would wait for may be waiting for them.
  @Test func cancelsAfterOneThatGaveUpReturnAtOnce() {
    let host = Host()
    let queue = DispatchQueue(label: "org.affix.tests.cancelling")
    let entered = DispatchSemaphore(value: 0)
    let queueTaken = DispatchSemaphore(value: 0)
    let callEnded = DispatchSemaphore(value: 0)
    let cancelsReturned = DispatchSemaphore(value: 0)
    let token = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        entered.signal()
        queueTaken.wait()
        queue.sync {}
        callEnded.signal()
      })
    startThread { Associations(of: host)[number] = 1 }
    entered.wait()
    let log = DiagnosticLog()
    queue.async {
      queueTaken.signal()
      log.capture {
        token.cancel()
        token.cancel()  // the same call is still in flight, waiting for this queue
      }
      cancelsReturned.signal()
    }
    #expect(cancelsReturned.wait(timeout: .now() + .seconds(60)) == .success)
    #expect(callEnded.wait(timeout: .now() + .seconds(60)) == .success)
    #expect(log.count == 1)
  }
}
