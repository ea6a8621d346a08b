import Affix
import AffixTestSupport
import Dispatch
import Foundation
import Testing

@Suite struct SpinLockTests {
  final class Shared: Sendable {
    let lock = SpinLock()
    let counter = Affix.Locked(0)
  }

  @Test func lockedIncrementsFromManyThreadsAreNeverLost() {
    let shared = Shared()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 {
        shared.counter.withLock { $0 += 1 }
      }
    }
    #expect(shared.counter.withLock { $0 } == 160_000)
  }

  #if os(Linux)
    @Test func aWaiterGoesToSleepAndTheUnlockWakesIt() {
      let shared = Shared()
      let tookLock = Flag()
      let finished = DispatchSemaphore(value: 0)
      shared.lock.lock()
      startThread {
        shared.lock.lock()
        tookLock.set()
        shared.lock.unlock()
        finished.signal()
      }
      // The waiter spins a bounded number of times, then marks the word and sleeps: the mark
      // must come while this thread still holds the lock.
      #expect(waitUntil { shared.lock.mayHaveSleepers })
      #expect(!tookLock.isSet)
      shared.lock.unlock()
      finished.wait()
      #expect(tookLock.isSet)
      let mayHaveSleepers = shared.lock.mayHaveSleepers
      #expect(!mayHaveSleepers)
    }
  #endif
}

/// Runs `body` on a thread of its own, not one of Dispatch's, which other tests running at the
/// same time may keep busy.
func startThread(_ body: @escaping @Sendable () -> Void) {
  Thread(block: body).start()
}

/// Polls `condition`, letting other threads run in between, until it holds; false if it never
/// does within a generous number of polls.
func waitUntil(_ condition: () -> Bool) -> Bool {
  for _ in 0..<1_000_000 {
    if condition() { return true }
    yieldThread()
  }
  return condition()
}
