import Affix
import AffixTestSupport
import Dispatch
import Foundation
import Testing

/// An observer runs in the isolation of the code that started the observation.
@Suite struct ObservationIsolationTests {
  enum Number: AssociatedKey { static let defaultValue = 0 }

  @MainActor final class Label {
    var shown: [Int] = []
    var offTheMainQueue = 0
  }

  @MainActor @Test func aMainActorObserverRunsOnTheMainActorWhenAnotherThreadWrites() async {
    let host = Host()
    let label = Label()
    // Touching `label` compiles only because the closure is isolated to the main actor.
    let token = Associations(of: host).observe(Number.self) { value in
      if !isOnMainQueue() { label.offTheMainQueue += 1 }
      label.shown.append(value)
    }
    await Task.detached { Associations(of: host)[Number.self] = 1 }.value
    #expect(await eventually { label.shown == [1] })
    #expect(label.offTheMainQueue == 0)
    token.cancel()
  }

  @MainActor @Test func aWriteOnTheMainActorRunsItsMainActorObserverInsideTheWrite() {
    let host = Host()
    let label = Label()
    let token = Associations(of: host).observe(Number.self) { label.shown.append($0) }
    Associations(of: host)[Number.self] = 2
    #expect(label.shown == [2])
    token.cancel()
  }

  actor Tally {
    var values: [Int] = []
    var token: CancellationToken?

    func watch(_ host: Host) {
      // Touching `values` compiles only because the closure is isolated to this actor.
      token = Associations(of: host).observe(Number.self) { self.values.append($0) }
    }
  }

  @Test func anActorsObserverRunsOnThatActor() async {
    let host = Host()
    let tally = Tally()
    await tally.watch(host)
    Associations(of: host)[Number.self] = 3
    Associations(of: host)[Number.self] = 4
    #expect(await eventually { await tally.values == [3, 4] })
  }

  @Test func aNonisolatedObserverRunsOnTheWritersThreadInsideTheWrite() {
    let host = Host()
    let threads = Recording<Bool>()
    let writer = SanitizerVisibleLock<Thread?>(nil)
    let token = Associations(of: host).observe(
      Number.self,
      nonisolated: { _ in
        threads.append(Thread.current == writer.withLock { $0 })
      })
    let done = DispatchSemaphore(value: 0)
    startThread {
      writer.withLock { $0 = Thread.current }
      Associations(of: host)[Number.self] = 5
      // Inside the write: recorded before the write returned.
      threads.append(threads.values.count == 1)
      done.signal()
    }
    done.wait()
    #expect(threads.values == [true, true])
    token.cancel()
  }

  @MainActor @Test func aCallEnqueuedOnTheMainActorBeforeACancelNeverRuns() async {
    let host = Host()
    let label = Label()
    let token = Associations(of: host).observe(Number.self) { label.shown.append($0) }
    // The main actor is busy with this test while the other thread writes, so the call is
    // enqueued behind it.
    let written = DispatchSemaphore(value: 0)
    startThread {
      Associations(of: host)[Number.self] = 6
      written.signal()
    }
    written.wait()
    token.cancel()
    // Enqueued after the observer's call: once it has run, so has the observer's turn.
    let after = Flag()
    Task { @MainActor in after.set() }
    #expect(await eventually { after.isSet })
    #expect(label.shown.isEmpty)
  }
}
