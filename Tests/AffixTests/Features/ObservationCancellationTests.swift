import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

/// Once a token's `cancel()` has returned, its observer is not running and never runs again.
@Suite struct ObservationCancellationTests {
  enum Number: AssociatedKey { typealias Value = Int? }
  let number = Number.self

  @Test func aCancelWaitsForTheCallbackRunningOnAnotherThread() {
    let host = Host()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let callbackEnded = Flag()
    let calls = Atomic<Int>(0)
    let token = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        calls.add(1, ordering: .relaxed)
        entered.signal()
        proceed.wait()
        callbackEnded.set()
      })
    let notified = DispatchSemaphore(value: 0)
    startThread {
      Associations(of: host)[number] = 1
      notified.signal()
    }
    entered.wait()
    let cancelReturned = Flag()
    let cancelled = DispatchSemaphore(value: 0)
    startThread {
      token.cancel()
      cancelReturned.set()
      cancelled.signal()
    }
    // Either the cancel returns while the callback is blocked (the bug), or it waits for it.
    #expect(
      waitUntil {
        cancelReturned.isSet || Associations(of: host).cancelsWaitingForCallbacks(of: number) == 1
      })
    #expect(!cancelReturned.isSet)
    proceed.signal()
    cancelled.wait()
    #expect(callbackEnded.isSet)
    notified.wait()
    Associations(of: host)[number] = 2
    #expect(calls.load(ordering: .relaxed) == 1)
  }

  @Test func aCancelledObserverDoesNotStartForAChangeMadeBeforeTheCancel() {
    let host = Host()
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    // Observers are called in the order they were added: `first` blocks the notifying thread
    // after it has taken its list of observers, and before it calls `second`.
    let first = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        entered.signal()
        proceed.wait()
      })
    let secondCalls = Atomic<Int>(0)
    let second = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        secondCalls.add(1, ordering: .relaxed)
      })
    let notified = DispatchSemaphore(value: 0)
    startThread {
      Associations(of: host)[number] = 1
      notified.signal()
    }
    entered.wait()
    second.cancel()
    proceed.signal()
    notified.wait()
    #expect(secondCalls.load(ordering: .relaxed) == 0)
    first.cancel()
  }

  @Test func aCallbackCancelsItsOwnObservationWithoutDeadlock() {
    let host = Host()
    let box = TokenBox()
    let calls = Atomic<Int>(0)
    let token = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        calls.add(1, ordering: .relaxed)
        box.cancel()
      })
    box.token = token
    Associations(of: host)[number] = 1
    #expect(token.isCancelled)
    Associations(of: host)[number] = 2
    #expect(calls.load(ordering: .relaxed) == 1)
  }

  @Test func aCallbackDropsTheLastReferenceToItsTokenWithoutDeadlock() {
    let host = Host()
    let box = TokenBox()
    let calls = Atomic<Int>(0)
    box.token = Associations(of: host).observe(
      number,
      nonisolated: { _ in
        calls.add(1, ordering: .relaxed)
        // Taken out of the box under its lock, dropped after: the drop cancels.
        let token = box.take()
        withExtendedLifetime(token) {}
      })
    Associations(of: host)[number] = 1
    Associations(of: host)[number] = 2
    #expect(calls.load(ordering: .relaxed) == 1)
  }

  @Test func aCallbackThatChangesItsOwnKeyAndCancelsInsideTheNestedCallDoesNotDeadlock() {
    let host = Host()
    let box = TokenBox()
    let values = Recording<Int?>()
    let key = number
    let token = Associations(of: host).observe(
      key,
      nonisolated: { value in
        values.append(value)
        if value == 1 {
          Associations(of: host)[key] = 2
        } else {
          box.cancel()
        }
      })
    box.token = token
    Associations(of: host)[key] = 1
    Associations(of: host)[key] = 3
    #expect(values.values == [1, 2])
  }
}
