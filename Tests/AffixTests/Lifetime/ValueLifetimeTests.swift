import Affix
import AffixTestSupport
import Synchronization
import Testing

@Suite struct ValueLifetimeTests {
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
  let value = TrackedValue.self
  enum Text: AssociatedKey { typealias Value = String? }
  let text = Text.self

  @Test func replacingAValueReleasesTheOldOneExactlyOnce() {
    let releases = Recording<Int>()
    let host = Host()
    Associations(of: host)[value] = Tracked(1) { releases.append(1) }
    Associations(of: host)[value] = Tracked(2) { releases.append(2) }
    // A replaced value is released after a grace period, by the next sweep at the latest.
    AssociationTable.sweep()
    #expect(releases.values == [1])
    Associations(of: host)[value] = Tracked(3) { releases.append(3) }
    AssociationTable.sweep()
    #expect(releases.values == [1, 2])
    #expect(Associations(of: host)[value]?.id == 3)
    Associations(of: host)[value] = nil
    AssociationTable.sweep()
    #expect(releases.values == [1, 2, 3])
  }

  @Test func writingTheSameInstanceAgainKeepsItAlive() {
    let host = Host()
    let lifetimes = Lifetimes()
    do {
      let tracked = lifetimes.make()
      Associations(of: host)[value] = tracked
      Associations(of: host)[value] = tracked
    }
    #expect(lifetimes.alive == 1)
    #expect(Associations(of: host)[value]?.isAlive == true)
  }

  @Test func removeReturnsTheOldValueAndASecondRemoveReturnsNil() {
    let host = Host()
    let lifetimes = Lifetimes()
    Associations(of: host)[value] = lifetimes.make(9)
    Associations(of: host)[text] = "text"
    do {
      let removed = Associations(of: host).removeValue(for: value)
      #expect(removed?.id == 9)
      #expect(removed?.isAlive == true)
      #expect(Associations(of: host).removeValue(for: value) == nil)
    }
    AssociationTable.sweep()
    #expect(lifetimes.alive == 0)
    #expect(Associations(of: host).removeValue(for: text) == "text")
    #expect(Associations(of: host).removeValue(for: text) == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func removingFromAHostWithoutValuesReturnsNil() {
    #expect(Associations(of: Host()).removeValue(for: value) == nil)
  }

  @Test func aWeakValueReadsNilOnceItDies() {
    let host = Host()
    enum Delegate: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let delegate = Delegate.self
    let lifetimes = Lifetimes()
    do {
      let tracked = lifetimes.make(5)
      Associations(of: host)[delegate] = tracked
      #expect(Associations(of: host)[delegate] === tracked)
    }
    // The storage does not keep it alive, and never hands back a dangling reference.
    #expect(lifetimes.alive == 0)
    #expect(Associations(of: host)[delegate] == nil)
    #expect(Associations(of: host).removeValue(for: delegate) == nil)
  }

  @Test func getOrCreateReplacesADeadWeakValue() {
    let host = Host()
    enum Delegate: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let delegate = Delegate.self
    do { Associations(of: host)[delegate] = Tracked(1) }
    let replacement = Tracked(2)
    let got = Associations(of: host).value(for: delegate) { replacement }
    #expect(got === replacement)
    #expect(Associations(of: host)[delegate] === replacement)
  }

  @Test func getOrCreateKeepsALiveWeakValue() {
    let host = Host()
    enum Delegate: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let delegate = Delegate.self
    let current = Tracked(1)
    Associations(of: host)[delegate] = current
    let got = Associations(of: host).value(for: delegate) { Tracked(2) }
    #expect(got === current)
  }

  @Test func aWeakKeyAndAStrongKeyHoldTheSameObjectIndependently() {
    let host = Host()
    enum WeakKey: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let weakKey = WeakKey.self
    let lifetimes = Lifetimes()
    do {
      let tracked = lifetimes.make()
      Associations(of: host)[weakKey] = tracked
      Associations(of: host)[value] = tracked
    }
    #expect(Associations(of: host)[weakKey]?.isAlive == true)
    Associations(of: host)[value] = nil
    AssociationTable.sweep()
    #expect(lifetimes.alive == 0)
    #expect(Associations(of: host)[weakKey] == nil)
  }

  @Test func aRetainedReadKeepsTheValueAliveAfterItIsReplaced() {
    let host = Host()
    Associations(of: host)[value] = Tracked(1)
    let read = Associations(of: host)[value]
    Associations(of: host)[value] = Tracked(2)
    #expect(read?.isAlive == true)
    #expect(read?.id == 1)
  }
}
