import Affix
import Synchronization
import Testing

final class Host {}

final class Tracked: Sendable {
  let id: Int
  let onDeinit: @Sendable () -> Void
  init(_ id: Int = 0, onDeinit: @escaping @Sendable () -> Void = {}) {
    self.id = id
    self.onDeinit = onDeinit
  }
  deinit { onDeinit() }
}

@Suite struct AssociationsTests {
  let number = AssociatedKey<Int>("number")
  let text = AssociatedKey<String>("text")
  let object = AssociatedKey<Tracked>("object")

  @Test func writingThenReadingGivesTheValueBack() {
    let host = Host()
    Associations(of: host)[number] = 42
    Associations(of: host)[text] = "hello"
    #expect(Associations(of: host)[number] == 42)
    #expect(Associations(of: host)[text] == "hello")
  }

  @Test func aHostWithoutValuesReadsNil() {
    #expect(Associations(of: Host())[number] == nil)
  }

  @Test func writingNilRemoves() {
    let host = Host()
    Associations(of: host)[number] = 1
    Associations(of: host)[number] = nil
    #expect(Associations(of: host)[number] == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func removeReturnsTheOldValueOnce() {
    let host = Host()
    Associations(of: host)[number] = 7
    #expect(Associations(of: host).removeValue(for: number) == 7)
    #expect(Associations(of: host).removeValue(for: number) == nil)
  }

  @Test func twoKeysWithTheSameTypeAndNameNeverCollide() {
    let first = AssociatedKey<Int>("same")
    let second = AssociatedKey<Int>("same")
    let host = Host()
    Associations(of: host)[first] = 1
    Associations(of: host)[second] = 2
    #expect(Associations(of: host)[first] == 1)
    #expect(Associations(of: host)[second] == 2)
    #expect(first != second)
  }

  @Test func hostsAreIndependent() {
    let a = Host()
    let b = Host()
    Associations(of: a)[number] = 1
    #expect(Associations(of: b)[number] == nil)
  }

  @Test func getOrCreateStoresOnce() {
    let host = Host()
    let calls = Mutex(0)
    let first = Associations(of: host).value(for: number) {
      calls.withLock { $0 += 1 }
      return 5
    }
    let second = Associations(of: host).value(for: number) {
      calls.withLock { $0 += 1 }
      return 6
    }
    #expect(first == 5)
    #expect(second == 5)
    #expect(calls.withLock { $0 } == 1)
  }

  @Test func hostDeathReleasesValuesAtTheSweep() {
    let released = Mutex(false)
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[object] = Tracked { released.withLock { $0 = true } }
    }
    #expect(weakHost == nil)
    AssociationTable.sweep()
    #expect(released.withLock { $0 })
  }

  @Test func keysListsAttachedKeys() {
    let host = Host()
    Associations(of: host)[number] = 1
    Associations(of: host)[text] = "x"
    let names = Set(Associations(of: host).keys.compactMap(\.name))
    #expect(names == ["number", "text"])
  }
}
