import Affix
import AffixTestSupport
import Dispatch
import Testing

/// Deliveries keep the order of what they deliver: an observer sees a key's values in the
/// order they were stored, a sequence of values ends on the stored one, and a callback's calls
/// run in the order they were made, whichever threads make them.
@Suite struct DeliveryOrderTests {
  enum Number: AssociatedKey { typealias Value = Int? }

  @Test func everyObserverAndSequenceEndsOnTheStoredValueWhenFourThreadsWrite() async {
    let rounds = scaled(1_500)
    var staleObservers = 0
    var staleSequences = 0
    for round in 0..<rounds {
      let (observed, stored, values) = writeFromFourThreads(round: round)
      if observed != stored { staleObservers += 1 }
      // The host is gone: an owner's values go with it, and the sequence ends after the last.
      var lastDelivered: Int?? = .none
      for await value in values { lastDelivered = value }
      if lastDelivered != .some(stored) { staleSequences += 1 }
    }
    #expect(staleObservers == 0)
    #expect(staleSequences == 0)
  }

  /// One round: a host observed and read as a sequence, written 3 times by each of 4 threads,
  /// then dropped. Returns the last value observed, the value stored, and the sequence.
  private func writeFromFourThreads(round: Int) -> (Int?, Int?, AsyncStream<Int?>) {
    let host = OwningHost()
    let last = SanitizerVisibleLock<Int?>(nil)
    let token = Associations(of: host).observe(
      Number.self,
      nonisolated: { value in
        last.withLock { $0 = value }
      })
    let values = Associations(of: host).values(for: Number.self)
    DispatchQueue.concurrentPerform(iterations: 4) { writer in
      for step in 1...3 { Associations(of: host)[Number.self] = round * 100 + writer * 10 + step }
    }
    token.cancel()
    return (last.withLock { $0 }, Associations(of: host)[Number.self], values)
  }

  @Test func anObserverSeesTheValuesInTheOrderTheyWereStored() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(Number.self, nonisolated: { seen.append($0) })
    let perWriter = scaled(5_000)
    // Each update stores one more than the value before it: the values stored are 1, 2, 3...
    // in the order they were stored, whichever thread stored each.
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<perWriter { Associations(of: host).update(Number.self) { $0 = ($0 ?? 0) + 1 } }
    }
    token.cancel()
    let values = seen.values.compactMap { $0 }
    // Every value, unless the observer fell more than its bound behind and skipped some.
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    #expect(values.last == 4 * perWriter)
  }

  /// A main-actor observer, while the main actor is busy here, of a writer on another thread:
  /// what waits for it stays within the bound, and once it runs it gets values in the order
  /// they were stored, ending on the stored one.
  @MainActor @Test func aSlowObserverKeepsItsBacklogBoundedAndEndsOnTheNewestValue() async {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(Number.self) { seen.append($0) }
    let writes = 20 * Associations<Host>.observerBacklogBound
    DispatchQueue.global().sync {
      for value in 1...writes { Associations(of: host)[Number.self] = value }
    }
    #expect(seen.values.isEmpty, "the main actor was busy here: nothing ran yet")
    let backlog = Associations(of: host).observerBacklogs(of: Number.self)
    #expect(backlog.allSatisfy { $0.peak <= Associations<Host>.observerBacklogBound })
    #expect(await eventually { seen.values.last == writes })
    let values = seen.values.compactMap { $0 }
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    #expect(values.count <= Associations<Host>.observerBacklogBound + 1)
    token.cancel()
  }

  @MainActor @Test func aCallMadeOnTheMainActorDoesNotOvertakeOneWaitingThere() async {
    let seen = Recording<Int>()
    let callback = IsolatedCallback<Int>(isolation: MainActor.shared) { seen.append($0) }
    // Made on another thread while the main actor is busy here: it waits to run there.
    DispatchQueue.global().sync { callback(1) }
    // Made on the main actor: it runs after the one that waits, not before.
    callback(2)
    await callback.delivered()
    #expect(seen.values.count == 2)
    #expect(seen.values == [1, 2])
  }

  @MainActor @Test func theBacklogCountsTheCallsWaitingNowAndTheMostThatEverDid() async {
    let seen = Recording<Int>()
    let callback = IsolatedCallback<Int>(isolation: MainActor.shared) { seen.append($0) }
    callback(0)  // on the main queue, with nothing waiting: it runs at once
    #expect(callback.backlog == Backlog(now: 0, peak: 0))
    DispatchQueue.global().sync {
      for value in 1...3 { callback(value) }
    }
    #expect(callback.backlog == Backlog(now: 3, peak: 3))
    let copy = callback
    await copy.delivered()
    #expect(seen.values == [0, 1, 2, 3])
    #expect(callback.backlog == Backlog(now: 0, peak: 3), "the peak stays; copies share the count")
  }

  @MainActor @Test func deliveredReturnsOnceTheCallsMadeBeforeItHaveRun() async {
    let seen = Recording<Int>()
    let callback = IsolatedCallback<Int>(isolation: MainActor.shared) { seen.append($0) }
    await callback.delivered()
    // Queued from another thread while the main actor is busy here.
    DispatchQueue.global().sync {
      for value in 1...3 { callback(value) }
    }
    #expect(seen.values.isEmpty)
    await callback.delivered()
    #expect(seen.values == [1, 2, 3])
  }

  @Test func aCallbackOnAnActorRunsItsCallsInTheOrderTheyWereMade() async {
    let recorder = OrderRecorder()
    let callback = await recorder.callback()
    let calls = scaled(10_000)
    // Two threads call in turns that a lock orders: the order the calls were made.
    let next = SanitizerVisibleLock(0)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      while next.withLock({ number in
        guard number < calls else { return false }
        callback(number)
        number += 1
        return true
      }) {}
    }
    await callback.delivered()
    #expect(await recorder.values.count == calls)
    let values = await recorder.values
    #expect(values == Array(0..<calls))
  }

  @Test func aNonisolatedCallbackNeverRunsConcurrentlyWithItself() {
    let inside = SanitizerVisibleLock(0)
    let overlaps = SanitizerVisibleLock(0)
    let callback = IsolatedCallback<Int>(nonisolated: { _ in
      let count = inside.withLock { count in
        count += 1
        return count
      }
      if count > 1 { overlaps.withLock { $0 += 1 } }
      inside.withLock { $0 -= 1 }
    })
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for call in 0..<scaled(20_000) { callback(thread + call) }
    }
    #expect(overlaps.withLock { $0 } == 0)
  }

  @Test func anUpdateThatLeavesAnEquatableValueEqualNotifiesNoOne() {
    let host = Host()
    Associations(of: host)[Number.self] = 3
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(Number.self, nonisolated: { seen.append($0) })
    Associations(of: host).update(Number.self) { $0 = min($0 ?? 0, 5) }
    Associations(of: host).update(Number.self) { $0 = min($0 ?? 0, 2) }
    token.cancel()
    #expect(seen.values == [2])
  }

  @Test func anUpdateOfAValueThatIsNotEquatableAlwaysNotifies() {
    struct Opaque: Sendable { var count = 0 }
    enum OpaqueKey: AssociatedKey { static let defaultValue = Opaque() }
    let host = Host()
    let seen = Recording<Int>()
    let token = Associations(of: host).observe(
      OpaqueKey.self, nonisolated: { seen.append($0.count) })
    Associations(of: host).update(OpaqueKey.self) { _ in }
    token.cancel()
    #expect(seen.values == [0])
  }
}

/// Records the values its callback receives, on the actor.
private actor OrderRecorder {
  private(set) var values: [Int] = []

  func callback() -> IsolatedCallback<Int> {
    IsolatedCallback(isolation: self) { value in self.values.append(value) }
  }
}
