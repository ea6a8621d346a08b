import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

// Keys declared as types. Each test uses hosts of its own, so tests running in parallel share
// the key types but never a value.

private enum TapCount: AssociatedKey {
  static let defaultValue = 0
}

private enum ClickCount: AssociatedKey {
  static let defaultValue = 0
}

private enum Title: AssociatedKey {
  typealias Value = String?
}

private enum Owner: AssociatedKey {
  typealias Value = Tracked?
}

private enum Listener: AssociatedKey {
  typealias Value = Tracked?
  static let policy = AssociationPolicy.weak
}

private enum Tagged<Tag>: AssociatedKey {
  typealias Value = Int?
}

/// Another key named `TapCount`, declared in another scope.
private enum Elsewhere {
  enum TapCount: AssociatedKey {
    static let defaultValue = 100
  }
}

/// A type that is both a capability and a key, so that both can be attached under it.
private final class Badge: Capability, AssociatedKey {
  typealias Value = Int?
  func didEnd(_ ending: CapabilityEnding) {}
}

@Suite struct AssociatedKeyTests {
  @Test func valuesOfEveryRepresentationReadBackAndGo() {
    let host = Host()
    let owner = Tracked(1)
    Associations(of: host)[TapCount.self] = 3
    Associations(of: host)[Title.self] = "title"
    Associations(of: host)[Owner.self] = owner
    Associations(of: host)[Listener.self] = owner
    #expect(Associations(of: host)[TapCount.self] == 3)
    #expect(Associations(of: host)[Title.self] == "title")
    #expect(Associations(of: host)[Owner.self] === owner)
    #expect(Associations(of: host)[Listener.self] === owner)
    #expect(Associations(of: host).removeValue(for: TapCount.self) == 3)
    #expect(Associations(of: host).removeValue(for: TapCount.self) == 0)
    Associations(of: host)[Title.self] = nil
    #expect(Associations(of: host)[Title.self] == nil)
    #expect(Associations(of: host)[Owner.self] === owner)
  }

  @Test func compoundAssignmentStartsFromTheDefaultAndGetOrCreateStoresOnce() {
    let host = Host()
    Associations(of: host)[TapCount.self] += 1
    Associations(of: host)[TapCount.self] += 1
    #expect(Associations(of: host)[TapCount.self] == 2)
    #expect(Associations(of: host).value(for: Title.self) { "made" } == "made")
    #expect(Associations(of: host).value(for: Title.self) { "made again" } == "made")
  }

  @Test func keyTypesNeverCollideWithEachOtherOrWithCapabilities() {
    let host = Host()
    Associations(of: host)[TapCount.self] = 1
    Associations(of: host)[ClickCount.self] = 2
    Associations(of: host)[Elsewhere.TapCount.self] = 3
    Associations(of: host)[Tagged<Int>.self] = 4
    Associations(of: host)[Tagged<String>.self] = 5
    let badge = Associations(of: host).attach(Badge())
    Associations(of: host)[Badge.self] = 6
    #expect(Associations(of: host)[TapCount.self] == 1)
    #expect(Associations(of: host)[ClickCount.self] == 2)
    #expect(Associations(of: host)[Elsewhere.TapCount.self] == 3)
    #expect(Associations(of: host)[Tagged<Int>.self] == 4)
    #expect(Associations(of: host)[Tagged<String>.self] == 5)
    #expect(Associations(of: host)[Badge.self] == 6)
    #expect(Associations(of: host).capability(Badge.self) === badge)
    #expect(Associations(of: host).capabilities.count == 1)
    // Removing the key leaves the capability of the same type, and the reverse.
    Associations(of: host)[Badge.self] = nil
    #expect(Associations(of: host).capability(Badge.self) === badge)
    Associations(of: host)[Badge.self] = 7
    Associations(of: host).removeCapability(Badge.self)
    #expect(Associations(of: host)[Badge.self] == 7)
  }

  @Test func theKeysListingNamesTheKeyType() {
    let host = Host()
    let target = Tracked(1)
    Associations(of: host)[TapCount.self] = 1
    Associations(of: host)[Listener.self] = target
    let keys = Associations(of: host).keys
    #expect(keys.count == 2)
    let tapCount = keys.first { $0.describes(TapCount.self) }
    #expect(tapCount?.name == "TapCount")
    #expect(tapCount?.valueType == Int.self)
    #expect(tapCount?.policy == .strong)
    #expect(tapCount?.description == "TapCount: Int")
    let listener = keys.first { $0.describes(Listener.self) }
    #expect(listener?.name == "Listener")
    #expect(listener?.policy == .weak)
    #expect(!keys.contains { $0.describes(ClickCount.self) })
    #expect(!keys.contains { $0.describes(Elsewhere.TapCount.self) })
    withExtendedLifetime(target) {}
  }

  @Test func aWeakKeyHoldsItsValueWeaklyAndReadsTheDefaultOnceItDies() {
    let host = Host()
    let lifetimes = Lifetimes()
    do {
      let target = lifetimes.make()
      Associations(of: host)[Listener.self] = target
      #expect(Associations(of: host)[Listener.self] === target)
      #expect(Associations(of: host).hasValue(for: Listener.self))
    }
    #expect(lifetimes.alive == 0)
    #expect(Associations(of: host)[Listener.self] == nil)
    #expect(!Associations(of: host).hasValue(for: Listener.self))
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func valuesGoWithTheirHost() {
    let lifetimes = Lifetimes()
    do {
      let host = Host()
      Associations(of: host)[Owner.self] = lifetimes.make()
      Associations(of: host)[TapCount.self] = 1
    }
    #expect(sweepUntil { lifetimes.alive == 0 })
    do {
      let owner = OwningHost()
      Associations(of: owner)[Owner.self] = lifetimes.make()
      Associations(of: owner)[TapCount.self] = 2
      #expect(Associations(of: owner)[TapCount.self] == 2)
      #expect(lifetimes.alive == 1)
    }
    #expect(lifetimes.alive == 0)
  }

  @Test func anObserverSeesItsKeysChangesAndTheDefaultOnRemoval() {
    let host = Host()
    let seen = Recording<Int>()
    let token = Associations(of: host).observe(TapCount.self, nonisolated: { seen.append($0) })
    Associations(of: host)[TapCount.self] = 1
    Associations(of: host)[ClickCount.self] = 5
    Associations(of: host).removeValue(for: TapCount.self)
    token.cancel()
    Associations(of: host)[TapCount.self] = 2
    #expect(seen.values == [1, 0])
  }
}

/// What a key's default means: the value read while nothing is attached.
@Suite struct AssociatedKeyDefaultTests {
  /// A value that can be written `nil` without being an `Optional`.
  struct Setting: ExpressibleByNilLiteral, Equatable, Sendable {
    var isSet: Bool
    init(nilLiteral: ()) { isSet = false }
    init(isSet: Bool) { self.isSet = isSet }
  }

  @Test func aKeyWhoseValueIsWrittenNilReadsNilByDefaultAndStoresItAsAValue() {
    enum Choice: AssociatedKey { typealias Value = Setting }
    let host = Host()
    #expect(Associations(of: host)[Choice.self] == nil)
    Associations(of: host)[Choice.self] = Setting(isSet: true)
    #expect(Associations(of: host)[Choice.self] == Setting(isSet: true))
    // Only an `Optional`'s nil removes: this one is a value like any other.
    Associations(of: host)[Choice.self] = nil
    #expect(Associations(of: host).hasValue(for: Choice.self))
  }

  @Test func optionalKeysOfObjectsAndOfValuesRemoveOnNil() {
    enum Object: AssociatedKey { typealias Value = Tracked? }
    enum Text: AssociatedKey { typealias Value = String? }
    let host = Host()
    Associations(of: host)[Object.self] = Tracked(1)
    Associations(of: host)[Text.self] = "text"
    Associations(of: host)[Object.self] = nil
    Associations(of: host)[Text.self] = nil
    #expect(!Associations(of: host).hasValue(for: Object.self))
    #expect(!Associations(of: host).hasValue(for: Text.self))
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func aNonOptionalKeyReadsItsDefaultUntilAValueIsAttached() {
    enum Volume: AssociatedKey { static let defaultValue = 0.5 }
    let host = Host()
    #expect(Associations(of: host)[Volume.self] == 0.5)
    #expect(!Associations(of: host).hasValue(for: Volume.self))
    #expect(Associations(of: host).keys.isEmpty)
    Associations(of: host)[Volume.self] = 0.75
    #expect(Associations(of: host)[Volume.self] == 0.75)
    #expect(Associations(of: host).hasValue(for: Volume.self))
  }

  @Test func aRemovalReturnsTheOldValueAndTheKeyReadsItsDefaultAgain() {
    enum Greeting: AssociatedKey { static let defaultValue = "hello" }
    let host = Host()
    Associations(of: host)[Greeting.self] = "goodbye"
    #expect(Associations(of: host).removeValue(for: Greeting.self) == "goodbye")
    #expect(Associations(of: host)[Greeting.self] == "hello")
    #expect(!Associations(of: host).hasValue(for: Greeting.self))
    #expect(Associations(of: host).keys.isEmpty)
    // With nothing attached, a removal returns the default.
    #expect(Associations(of: host).removeValue(for: Greeting.self) == "hello")
    #expect(Associations(of: Host()).removeValue(for: Greeting.self) == "hello")
  }

  @Test func assigningNilToAnOptionalKeyRemovesItsValue() {
    enum Caption: AssociatedKey { typealias Value = String? }
    let host = Host()
    #expect(Associations(of: host)[Caption.self] == nil)
    Associations(of: host)[Caption.self] = "Sunset over the bay"
    #expect(Associations(of: host).hasValue(for: Caption.self))
    #expect(Associations(of: host).keys.contains { $0.describes(Caption.self) })
    Associations(of: host)[Caption.self] = nil
    #expect(Associations(of: host)[Caption.self] == nil)
    #expect(!Associations(of: host).hasValue(for: Caption.self))
    #expect(!Associations(of: host).keys.contains { $0.describes(Caption.self) })
    #expect(Associations(of: host).keys.isEmpty)
    #expect(Associations(of: host).removeValue(for: Caption.self) == nil)
  }

  @Test func anOptionalKeyMayDeclareADefaultOtherThanNil() {
    enum Limit: AssociatedKey {
      typealias Value = Int?
      static let defaultValue: Int? = 10
    }
    let host = Host()
    #expect(Associations(of: host)[Limit.self] == 10)
    Associations(of: host)[Limit.self] = 3
    #expect(Associations(of: host)[Limit.self] == 3)
    // Assigning nil still removes, and the key reads its default again.
    Associations(of: host)[Limit.self] = nil
    #expect(!Associations(of: host).hasValue(for: Limit.self))
    #expect(Associations(of: host)[Limit.self] == 10)
  }

  @Test func aWeakPolicyOnAValueThatIsNotAClassIsReportedOnceAndHeldStrongly() {
    struct Wrapper: Sendable {
      let tracked: Tracked
    }
    enum Misdeclared: AssociatedKey {
      typealias Value = Wrapper?
      static let policy = AssociationPolicy.weak
    }
    let host = Host()
    let lifetimes = Lifetimes()
    let reports = DiagnosticLog()
    reports.capture {
      do {
        Associations(of: host)[Misdeclared.self] = Wrapper(tracked: lifetimes.make(4))
      }
      // Held strongly: the only reference to the tracked object is the stored value's.
      #expect(lifetimes.alive == 1)
      #expect(Associations(of: host)[Misdeclared.self]?.tracked.id == 4)
      #expect(Associations(of: host).keys.first?.policy == .strong)
    }
    #expect(reports.count == 1)
    #expect(reports.all.first?.subsystem == "associations")
    #expect(reports.all.first?.message.contains("Misdeclared declares a weak policy") == true)
    Associations(of: host)[Misdeclared.self] = nil
    // A removed value is released after a grace period, by the next sweep at the latest.
    AssociationTable.sweep()
    #expect(lifetimes.alive == 0)
  }
}

/// `update` is an atomic read-modify-write.
@Suite struct UpdateTests {
  private enum Increments: AssociatedKey {
    static let defaultValue = 0
  }

  /// Two words: stored boxed, so that an update swaps a box rather than inline bits.
  private struct Tally: Equatable, Sendable {
    var generation = 0
    var count = 0
  }

  private enum TallyKey: AssociatedKey {
    static let defaultValue = Tally()
  }

  @Test func concurrentIncrementsOnOneHostLoseNone() {
    let host = Host()
    let owner = OwningHost()
    let threads = 4
    let perThread = 10_000
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<perThread {
        Associations(of: host).update(Increments.self) { $0 += 1 }
        Associations(of: host).update(TallyKey.self) { $0.count += 1 }
        Associations(of: owner).update(Increments.self) { $0 += 1 }
      }
    }
    #expect(Associations(of: host)[Increments.self] == threads * perThread)
    #expect(Associations(of: host)[TallyKey.self].count == threads * perThread)
    #expect(Associations(of: owner)[Increments.self] == threads * perThread)
  }

  @Test func concurrentIncrementsOnAHostWithoutStorageLoseNone() {
    // Every thread may find the host without storage and race to create it.
    for round in 0..<50 {
      let host = Host()
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<100 { Associations(of: host).update(Increments.self) { $0 += 1 } }
      }
      #expect(Associations(of: host)[Increments.self] == 400, "round \(round)")
    }
  }

  /// The observer is told in order and ends on the last count; it may skip counts when it
  /// falls more than its bound behind the four writers.
  @Test func concurrentIncrementsWithAnObserverLoseNoneAndNotifyInOrder() {
    let host = Host()
    Associations(of: host)[Increments.self] = 0
    let seen = Recording<Int>()
    let token = Associations(of: host).observe(
      Increments.self, nonisolated: { seen.append($0) })
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<5_000 { Associations(of: host).update(Increments.self) { $0 += 1 } }
    }
    #expect(Associations(of: host)[Increments.self] == 20_000)
    let values = seen.values
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    #expect(values.last == 20_000)
    token.cancel()
  }

  @Test func anUpdateNobodyRacesRunsItsBodyOnce() {
    let host = Host()
    Associations(of: host)[Increments.self] = 1
    var runs = 0
    Associations(of: host).update(Increments.self) { value in
      runs += 1
      value += 1
    }
    #expect(runs == 1)
    // With an observer, the write takes the storage's lock: still one run.
    let token = Associations(of: host).observe(Increments.self, nonisolated: { _ in })
    Associations(of: host).update(Increments.self) { value in
      runs += 1
      value += 1
    }
    #expect(runs == 2)
    #expect(Associations(of: host)[Increments.self] == 3)
    token.cancel()
  }

  @Test func updateReturnsTheBodysResult() {
    let host = Host()
    let doubled = Associations(of: host).update(Increments.self) { value in
      value += 5
      return value * 2
    }
    #expect(doubled == 10)
    #expect(Associations(of: host)[Increments.self] == 5)
    let previous = Associations(of: host).update(Increments.self) { value in
      defer { value = 0 }
      return value
    }
    #expect(previous == 5)
    #expect(Associations(of: host)[Increments.self] == 0)
    // Storing the default is still a value.
    #expect(Associations(of: host).hasValue(for: Increments.self))
  }

  @Test func aThrowingBodyChangesNothing() {
    struct Failure: Error {}
    let host = Host()
    Associations(of: host)[Increments.self] = 3
    #expect(throws: Failure.self) {
      try Associations(of: host).update(Increments.self) { value in
        value = 100
        throw Failure()
      }
    }
    #expect(Associations(of: host)[Increments.self] == 3)
  }

  @Test func anUpdateThatLeavesAnOptionalKeyNilRemovesItsValue() {
    enum Caption: AssociatedKey { typealias Value = String? }
    let host = Host()
    Associations(of: host)[Caption.self] = "old"
    let old = Associations(of: host).update(Caption.self) { value in
      defer { value = nil }
      return value
    }
    #expect(old == "old")
    #expect(!Associations(of: host).hasValue(for: Caption.self))
    #expect(Associations(of: host).keys.isEmpty)
    // On an empty key, an update that leaves it nil stores nothing.
    let wasNil = Associations(of: host).update(Caption.self) { $0 == nil }
    #expect(wasNil)
    #expect(Associations(of: host).keys.isEmpty)
    // And one that sets it stores.
    Associations(of: host).update(Caption.self) { $0 = ($0 ?? "") + "new" }
    #expect(Associations(of: host)[Caption.self] == "new")
  }

  @Test func anObserverSeesEachUpdatedValue() {
    enum Caption: AssociatedKey { typealias Value = String? }
    let host = Host()
    let counts = Recording<Int>()
    let captions = Recording<String?>()
    let countToken = Associations(of: host).observe(
      Increments.self, nonisolated: { counts.append($0) })
    let captionToken = Associations(of: host).observe(
      Caption.self, nonisolated: { captions.append($0) })
    Associations(of: host).update(Increments.self) { $0 += 1 }
    Associations(of: host).update(Increments.self) { $0 += 2 }
    Associations(of: host).update(Caption.self) { $0 = "first" }
    Associations(of: host).update(Caption.self) { $0 = nil }
    // Leaving an empty key empty is no change.
    Associations(of: host).update(Caption.self) { $0 = nil }
    #expect(counts.values == [1, 3])
    #expect(captions.values == ["first", nil])
    countToken.cancel()
    captionToken.cancel()
  }

  /// One thread keeps replacing the value with a new generation at count zero; two others
  /// count up. Every update applies to the value stored just before it, so within a
  /// generation the counts the updates return are 1, 2, 3, … with none repeated or skipped,
  /// and the final value's count is how many updates its generation saw.
  @Test func updatesRacingAPlainSetterApplyEachToTheValueBeforeIt() {
    let host = Host()
    let perThread = 10_000
    let updatersDone = Atomic<Int>(0)
    let results = SanitizerVisibleLock<[Tally]>([])
    let generations = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      if thread == 0 {
        var generation = 0
        while updatersDone.load(ordering: .acquiring) < 2 {
          generation += 1
          Associations(of: host)[TallyKey.self] = Tally(generation: generation)
          // Let the updaters count a little within each generation.
          for _ in 0..<50 { yieldThread() }
        }
        generations.store(generation, ordering: .relaxed)
        return
      }
      var mine: [Tally] = []
      mine.reserveCapacity(perThread)
      for _ in 0..<perThread {
        mine.append(
          Associations(of: host).update(TallyKey.self) { tally in
            tally.count += 1
            return tally
          })
      }
      results.withLock { $0 += mine }
      updatersDone.add(1, ordering: .releasing)
    }
    let all = results.withLock { $0 }
    #expect(all.count == 2 * perThread)
    var counts: [Int: [Int]] = [:]
    for tally in all { counts[tally.generation, default: []].append(tally.count) }
    for (generation, seen) in counts {
      #expect(seen.sorted() == Array(1...seen.count), "generation \(generation)")
    }
    let final = Associations(of: host)[TallyKey.self]
    #expect(final.generation <= generations.load(ordering: .relaxed))
    #expect(final.count == counts[final.generation]?.count ?? 0)
  }
}

// MARK: The README's way: a computed property in an extension

private final class Button {}

private enum ButtonTapCount: AssociatedKey {
  static let defaultValue = 0
}

private enum ButtonCaption: AssociatedKey {
  typealias Value = String?
}

private enum ButtonOwner: AssociatedKey {
  typealias Value = Tracked?
  static let policy = AssociationPolicy.weak
}

extension Button {
  fileprivate var tapCount: Int {
    get { Associations(of: self)[ButtonTapCount.self] }
    set { Associations(of: self)[ButtonTapCount.self] = newValue }
  }

  fileprivate var caption: String? {
    get { Associations(of: self)[ButtonCaption.self] }
    set { Associations(of: self)[ButtonCaption.self] = newValue }
  }

  fileprivate var owner: Tracked? {
    get { Associations(of: self)[ButtonOwner.self] }
    set { Associations(of: self)[ButtonOwner.self] = newValue }
  }
}

@Suite struct ComputedPropertyTests {
  @Test func aComputedPropertyReadsAndWritesTheAssociatedValue() {
    let button = Button()
    #expect(button.tapCount == 0)
    button.tapCount += 1
    button.tapCount += 1
    #expect(button.tapCount == 2)
    #expect(Button().tapCount == 0)

    #expect(button.caption == nil)
    button.caption = "OK"
    #expect(button.caption == "OK")
    button.caption = nil
    #expect(Associations(of: button).keys.map(\.name) == ["ButtonTapCount"])

    let lifetimes = Lifetimes()
    do {
      let owner = lifetimes.make(1)
      button.owner = owner
      #expect(button.owner === owner)
    }
    #expect(lifetimes.alive == 0)
    #expect(button.owner == nil)
  }
}
