import Affix
import AffixTestSupport
import Dispatch
import Observation
import Synchronization
import Testing

/// `ObservableKey`: associated values that Swift Observation tracks as it tracks a stored
/// property of an `@Observable` class.
@Suite(.timeLimit(.minutes(1))) struct ObservableKeyTests {
  enum Caption: ObservableKey { typealias Value = String? }
  enum Count: ObservableKey { static let defaultValue = 0 }
  enum Other: ObservableKey { static let defaultValue = 0 }
  enum Plain: AssociatedKey { static let defaultValue = 0 }
  enum Child: ObservableKey { typealias Value = Tracked? }

  @Test func aTrackedReadIsToldOfTheNextWriteOnce() {
    let host = Host()
    let changes = TrackedRead { _ = Associations(of: host)[Caption.self] }
    #expect(changes.timesTold == 0)
    Associations(of: host)[Caption.self] = "Sunset"
    #expect(changes.timesTold == 1)
    Associations(of: host)[Caption.self] = "Dawn"
    #expect(changes.timesTold == 1, "a tracking is told once, as Observation's are")
  }

  @Test func aReadBeforeAnyValueIsToldOfTheFirstOne() {
    let host = Host()
    let changes = TrackedRead { #expect(!Associations(of: host).hasValue(for: Caption.self)) }
    Associations(of: host)[Caption.self] = "First"
    #expect(changes.timesTold == 1)
  }

  @Test func onChangeRunsBeforeTheChangeIsStored() {
    let host = Host()
    Associations(of: host)[Count.self] = 1
    let seen = Mutex<Int?>(nil)
    withObservationTracking {
      _ = Associations(of: host)[Count.self]
    } onChange: {
      seen.withLock { $0 = Associations(of: host)[Count.self] }
    }
    Associations(of: host)[Count.self] = 2
    #expect(seen.withLock { $0 } == 1)
  }

  @Test func anotherKeyOrAnotherHostIsNoChange() {
    let host = Host()
    let other = Host()
    let changes = TrackedRead { _ = Associations(of: host)[Count.self] }
    Associations(of: host)[Other.self] = 1
    Associations(of: other)[Count.self] = 1
    Associations(of: host)[Plain.self] = 1
    #expect(changes.timesTold == 0)
    Associations(of: host)[Count.self] = 1
    #expect(changes.timesTold == 1)
  }

  @Test func aKeyThatIsNotObservableIsNeverTracked() {
    let host = Host()
    let changes = TrackedRead { _ = Associations(of: host)[Plain.self] }
    Associations(of: host)[Plain.self] = 1
    Associations(of: host).update(Plain.self) { $0 += 1 }
    #expect(changes.timesTold == 0)
    #expect(Associations(of: host).keys.map(\.name) == ["Plain"])
  }

  @Test func anUpdateThatLeavesAnEquatableValueEqualIsNoChange() {
    let host = Host()
    Associations(of: host)[Count.self] = 3
    let changes = TrackedRead { _ = Associations(of: host)[Count.self] }
    Associations(of: host).update(Count.self) { $0 = min($0, 5) }
    #expect(changes.timesTold == 0)
    Associations(of: host).update(Count.self) { $0 += 1 }
    #expect(changes.timesTold == 1)
    #expect(Associations(of: host)[Count.self] == 4)
  }

  @Test func aRemovalIsAChangeOnlyWhenAValueWasThere() {
    let host = Host()
    let untouched = TrackedRead { _ = Associations(of: host)[Caption.self] }
    Associations(of: host).removeValue(for: Caption.self)
    #expect(untouched.timesTold == 0)
    Associations(of: host)[Caption.self] = "Gone soon"
    let changes = TrackedRead { _ = Associations(of: host)[Caption.self] }
    Associations(of: host).removeValue(for: Caption.self)
    #expect(changes.timesTold == 1)
  }

  @Test func aValueMadeOnFirstUseIsAChangeAndAFoundOneIsARead() {
    let host = Host()
    let lifetimes = Lifetimes()
    let changes = TrackedRead { _ = Associations(of: host)[Child.self] }
    let made = Associations(of: host).value(for: Child.self) { lifetimes.make() }
    #expect(changes.timesTold == 1)
    let found = TrackedRead {
      _ = Associations(of: host).value(for: Child.self) { lifetimes.make() }
    }
    Associations(of: host)[Child.self] = nil
    #expect(found.timesTold == 1)
    #expect(made.isAlive)
  }

  @Test func theSlotIsNotListedAmongTheHostsKeys() {
    let host = Host()
    _ = Associations(of: host)[Count.self]
    #expect(Associations(of: host).keys.isEmpty)
    Associations(of: host)[Count.self] = 1
    #expect(Associations(of: host).keys.map(\.name) == ["Count"])
  }

  @Test(arguments: [false, true])
  func theHostsDeathIsAChangeAndTrackingKeepsNothingAlive(ownsItsStorage: Bool) {
    let lifetimes = Lifetimes()
    weak var weakHost: AnyObject?
    let changes: TrackedRead
    do {
      let host: AnyObject = ownsItsStorage ? OwningHost() : Host()
      weakHost = host
      Associations(of: host)[Child.self] = lifetimes.make()
      changes = TrackedRead { _ = Associations(of: host)[Child.self] }
    }
    #expect(isDeallocated { weakHost }, "tracking holds no reference to the host")
    #expect(sweepUntil { changes.timesTold == 1 })
    #expect(sweepUntil { lifetimes.alive == 0 }, "nor to its values")
  }

  @Test func fourThreadsWritingEndWithTheStoredValueDelivered() async {
    guard #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) else { return }
    let host = Host()
    let values = Observations { Associations(of: host)[Count.self] }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 1...2_000 {
        Associations(of: host).update(Count.self) { $0 = max($0, round * 4 + thread) }
      }
    }
    let stored = Associations(of: host)[Count.self]
    #expect(stored == 2_000 * 4 + 3)
    // A transaction ends at the next suspension of the emitting isolation: the value it
    // delivers is read then, so it is the stored one however the writes interleaved.
    var last = await iterator.next()
    while last != stored { last = await iterator.next() }
    #expect(last == stored)
  }

  @Test @MainActor func aMainActorConsumerGetsEverySettledValueInOrder() async {
    guard #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) else { return }
    let host = Host()
    var iterator = Observations { Associations(of: host)[Count.self] }.makeAsyncIterator()
    var seen: [Int] = []
    for value in 1...5 {
      seen.append(await iterator.next() ?? -1)
      // Written on the main actor between deliveries: each one settles before the next read.
      Associations(of: host)[Count.self] = value
    }
    seen.append(await iterator.next() ?? -1)
    #expect(seen == [0, 1, 2, 3, 4, 5])
  }

  @Test func aSequenceThatReadsItsHostWeaklyEndsWithIt() async {
    guard #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) else { return }
    var host: Host? = Host()
    Associations(of: host!)[Count.self] = 7
    let values = Observations.untilFinished {
      [weak host] () -> Observations<Int, Never>.Iteration in
      guard let host else { return .finish }
      return .next(Associations(of: host)[Count.self])
    }
    let seen = Recording<Int>()
    let ended = Flag()
    Task {
      for await value in values { seen.append(value) }
      ended.set()
    }
    #expect(await eventually { seen.count == 1 })
    host = nil
    // The host's death is the change that wakes the sequence, which then finds no host.
    #expect(
      await eventually {
        AssociationTable.sweep()
        return ended.isSet
      })
    #expect(seen.values == [7])
  }
}
