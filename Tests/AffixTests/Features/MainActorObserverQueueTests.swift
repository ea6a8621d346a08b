import Affix
import AffixTestSupport
import Dispatch
import Testing

/// A main-actor observer runs at once, inside the write, when the write is made on the main
/// queue; main-actor code inside another queue's `sync` block is on the main actor but off the
/// main queue, and a write it makes enqueues the call on the main actor.
@MainActor @Suite struct MainActorObserverQueueTests {
  enum Number: AssociatedKey { static let defaultValue = 0 }

  @MainActor final class Label {
    var shown: [Int] = []
    var offTheMainQueue = 0
  }

  @Test func aWriteOnTheMainQueueRunsTheObserverInsideIt() {
    let host = Host()
    let label = Label()
    let token = Associations(of: host).observe(Number.self) { label.shown.append($0) }
    #expect(isOnMainQueue())
    Associations(of: host)[Number.self] = 1
    #expect(label.shown == [1])
    token.cancel()
  }

  @Test func aWriteInsideAnotherQueuesSyncBlockEnqueuesTheObserverOnTheMainActor() async {
    let host = Host()
    let label = Label()
    let token = Associations(of: host).observe(Number.self) { value in
      if !isOnMainQueue() { label.offTheMainQueue += 1 }
      label.shown.append(value)
    }
    let queue = DispatchQueue(label: "org.affix.tests.sync")
    queue.sync {
      // Still the main actor's code, which is why it may touch `label`; no longer the main
      // queue.
      #expect(!isOnMainQueue())
      Associations(of: host)[Number.self] = 1
      #expect(label.shown == [])
    }
    // Back on the main queue, the call still waits: the main actor has not been given up.
    Associations(of: host)[Number.self] = 2
    #expect(label.shown == [])
    #expect(await eventually { label.shown == [1, 2] })
    #expect(label.offTheMainQueue == 0)
    token.cancel()
  }
}
