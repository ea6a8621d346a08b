import Affix
import AffixTestSupport
import Dispatch
import Testing

/// `values(for:)`: an asynchronous sequence of a key's values that ends with its host.
@Suite struct ObservedValuesTests {
  enum Number: AssociatedKey { static let defaultValue = 0 }

  @Test func theSequenceStartsWithTheCurrentValueThenDeliversEachChange() async {
    let host = Host()
    Associations(of: host)[Number.self] = 1
    var values = Associations(of: host).values(for: Number.self).makeAsyncIterator()
    #expect(await values.next() == 1)
    Associations(of: host)[Number.self] = 2
    #expect(await values.next() == 2)
    _ = Associations(of: host).removeValue(for: Number.self)
    #expect(await values.next() == 0)
  }

  @Test func aReaderThatFallsBehindGetsTheNewestValue() async {
    let host = Host()
    var values = Associations(of: host).values(for: Number.self).makeAsyncIterator()
    for value in 1...5 { Associations(of: host)[Number.self] = value }
    #expect(await values.next() == 5)
  }

  @Test func theSequenceEndsWhenItsHostDiesAfterTheLastValueWritten() async {
    let ended = Flag()
    let seen = Recording<Int>()
    do {
      let host = Host()
      let values = Associations(of: host).values(for: Number.self)
      Task {
        for await value in values { seen.append(value) }
        ended.set()
      }
      for value in 1...3 { Associations(of: host)[Number.self] = value }
    }
    #expect(await sweepsUntil(ended))
    // The host died right after its last write: the reader may have missed values in between,
    // never the last.
    #expect(seen.values.last == 3)
  }

  @Test func theSequenceOfAnOwnerEndsWithItsDeinit() async {
    var values: AsyncStream<Int>.Iterator
    do {
      let host = OwningHost()
      values = Associations(of: host).values(for: Number.self).makeAsyncIterator()
      Associations(of: host)[Number.self] = 7
    }
    #expect(await values.next() == 7)
    #expect(await values.next() == nil)
  }

  @Test(arguments: 0..<20)
  func theLastValueWrittenOnAnotherThreadBeforeTheHostDiesIsNeverMissed(_ round: Int) async {
    let ended = Flag()
    let last = SanitizerVisibleLock<Int?>(nil)
    let host = Host()
    let values = Associations(of: host).values(for: Number.self)
    let reader = Task {
      for await value in values { last.withLock { $0 = value } }
      ended.set()
    }
    // The writer holds the last reference: the host dies on its thread right after the write.
    let box = SanitizerVisibleLock<Host?>(host)
    startThread {
      let host = box.withLock { $0 }!
      box.withLock { $0 = nil }
      for value in 1...100 { Associations(of: host)[Number.self] = value + round }
    }
    _ = consume host
    #expect(await sweepsUntil(ended))
    #expect(last.withLock { $0 } == 100 + round)
    reader.cancel()
  }

  @Test func cancellingTheReadingTaskEndsTheSequenceAndItsObservation() async {
    let host = Host()
    let ended = Flag()
    let started = Flag()
    let values = Associations(of: host).values(for: Number.self)
    let reader = Task {
      for await _ in values { started.set() }
      ended.set()
    }
    #expect(await eventually { started.isSet })
    #expect(Associations(of: host).observerCount(of: Number.self) == 1)
    reader.cancel()
    #expect(await eventually { ended.isSet })
    #expect(Associations(of: host).observerCount(of: Number.self) == 0)
  }

  @Test func aCancelledReaderGetsTheValueItHeldThenTheEnd() async {
    let host = Host()
    let values = Associations(of: host).values(for: Number.self)
    // The sequence keeps the newest value: 7, not the default read first.
    Associations(of: host)[Number.self] = 7
    let reader = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var seen: [Int?] = []
      for await value in values { seen.append(value) }
      return seen
    }
    #expect(await reader.value == [7])
    #expect(Associations(of: host).observerCount(of: Number.self) == 0)
    Associations(of: host)[Number.self] = 8
  }

  @Test func neitherTheSequenceNorItsIteratorKeepsTheHostAlive() async {
    weak var weakHost: Host?
    let values: AsyncStream<Int>
    do {
      let host = Host()
      weakHost = host
      values = Associations(of: host).values(for: Number.self)
    }
    #expect(isDeallocated { weakHost })
    let seen = Recording<Int>()
    let ended = Flag()
    Task {
      for await value in values { seen.append(value) }
      ended.set()
    }
    #expect(await sweepsUntil(ended))
    #expect(seen.values == [0])
  }

  @Test func aSequenceDroppedUnreadLeavesNothingOnTheHost() {
    let host = Host()
    do {
      let values = Associations(of: host).values(for: Number.self)
      #expect(Associations(of: host).observerCount(of: Number.self) == 1)
      withExtendedLifetime(values) {}
    }
    #expect(Associations(of: host).observerCount(of: Number.self) == 0)
  }

  @Test func aSequenceEndedByItsHostLeavesNothingBehind() async {
    let lifetimes = Lifetimes()
    let values: AsyncStream<Tracked?>
    enum Object: AssociatedKey { typealias Value = Tracked? }
    do {
      let host = Host()
      values = Associations(of: host).values(for: Object.self)
      Associations(of: host)[Object.self] = lifetimes.make()
    }
    let ended = Flag()
    Task {
      // Holds the last value only while it is the current element.
      for await value in values { _ = value }
      ended.set()
    }
    #expect(await sweepsUntil(ended))
    #expect(sweepUntil { lifetimes.alive == 0 })
  }
}

/// Sweeps until `ended` is set, within the deadline of `eventually`.
private func sweepsUntil(_ ended: Flag) async -> Bool {
  await eventually {
    AssociationTable.sweep()
    return ended.isSet
  }
}
