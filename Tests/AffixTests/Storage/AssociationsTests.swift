import Affix
import AffixTestSupport
import Synchronization
import Testing

private enum Number: AssociatedKey {
  typealias Value = Int?
}

private enum Text: AssociatedKey {
  typealias Value = String?
}

private enum Object: AssociatedKey {
  typealias Value = Tracked?
}

@Suite struct AssociationsTests {

  @Test func writingThenReadingGivesTheValueBack() {
    let host = Host()
    Associations(of: host)[Number.self] = 42
    Associations(of: host)[Text.self] = "hello"
    #expect(Associations(of: host)[Number.self] == 42)
    #expect(Associations(of: host)[Text.self] == "hello")
  }

  @Test func aHostWithoutValuesReadsNil() {
    #expect(Associations(of: Host())[Number.self] == nil)
  }

  @Test func writingNilRemoves() {
    let host = Host()
    Associations(of: host)[Number.self] = 1
    Associations(of: host)[Number.self] = nil
    #expect(Associations(of: host)[Number.self] == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func removeReturnsTheOldValueOnce() {
    let host = Host()
    Associations(of: host)[Number.self] = 7
    #expect(Associations(of: host).removeValue(for: Number.self) == 7)
    #expect(Associations(of: host).removeValue(for: Number.self) == nil)
  }

  @Test func twoKeysWithTheSameTypeAndNameNeverCollide() {
    enum First {
      enum Same: AssociatedKey { typealias Value = Int? }
    }
    enum Second {
      enum Same: AssociatedKey { typealias Value = Int? }
    }
    let host = Host()
    Associations(of: host)[First.Same.self] = 1
    Associations(of: host)[Second.Same.self] = 2
    #expect(Associations(of: host)[First.Same.self] == 1)
    #expect(Associations(of: host)[Second.Same.self] == 2)
    #expect(Associations(of: host).keys.map(\.name) == ["Same", "Same"])
  }

  @Test func hostsAreIndependent() {
    let a = Host()
    let b = Host()
    Associations(of: a)[Number.self] = 1
    #expect(Associations(of: b)[Number.self] == nil)
  }

  @Test func getOrCreateStoresOnce() {
    let host = Host()
    let calls = SanitizerVisibleLock(0)
    let first = Associations(of: host).value(for: Number.self) {
      calls.withLock { $0 += 1 }
      return 5
    }
    let second = Associations(of: host).value(for: Number.self) {
      calls.withLock { $0 += 1 }
      return 6
    }
    #expect(first == 5)
    #expect(second == 5)
    #expect(calls.withLock { $0 } == 1)
  }

  @Test func hostDeathReleasesValuesAtTheSweep() {
    let released = SanitizerVisibleLock(false)
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[Object.self] = Tracked { released.withLock { $0 = true } }
    }
    #expect(isDeallocated { weakHost })
    #expect(sweepUntil { released.withLock { $0 } })
  }

  @Test func keysListsAttachedKeys() {
    let host = Host()
    Associations(of: host)[Number.self] = 1
    Associations(of: host)[Text.self] = "x"
    let names = Set(Associations(of: host).keys.map(\.name))
    #expect(names == ["Number", "Text"])
  }
}

@Suite struct ValueRepresentationTests {
  struct Point: Equatable {
    var x: Int32
    var y: Int32
  }

  enum Direction: Equatable {
    case up, down
  }

  @Test func trivialValuesUpToAWordRoundTrip() {
    let host = Host()
    // Keys with defaults, whose values fit in a word and are stored inline (an optional of a
    // word-sized type would not fit). Each writes a value other than its default.
    enum DoubleKey: AssociatedKey { static let defaultValue = 1.0 }
    enum FlagKey: AssociatedKey { static let defaultValue = true }
    enum PointKey: AssociatedKey { static let defaultValue = Point(x: 0, y: 0) }
    enum DirectionKey: AssociatedKey { static let defaultValue = Direction.up }
    enum Zero: AssociatedKey { static let defaultValue = 1 }
    let double = DoubleKey.self
    let flag = FlagKey.self
    let point = PointKey.self
    let direction = DirectionKey.self
    let zero = Zero.self
    Associations(of: host)[double] = -0.5
    Associations(of: host)[flag] = false
    Associations(of: host)[point] = Point(x: -1, y: 2)
    Associations(of: host)[direction] = .down
    Associations(of: host)[zero] = 0
    #expect(Associations(of: host)[double] == -0.5)
    #expect(Associations(of: host)[flag] == false)
    #expect(Associations(of: host)[point] == Point(x: -1, y: 2))
    #expect(Associations(of: host)[direction] == .down)
    #expect(Associations(of: host)[zero] == 0)
    #expect(Associations(of: host).keys.count == 5)
  }

  @Test func anInlineOptionalHoldingNilDiffersFromNoValue() {
    let host = Host()
    // A key whose value is itself optional: `.some(nil)` is a value, only `nil` is none.
    enum Key: AssociatedKey { typealias Value = Bool?? }
    let key = Key.self
    #expect(Associations(of: host)[key] == nil)
    Associations(of: host)[key] = .some(nil)
    #expect(Associations(of: host)[key] == .some(nil))
    #expect(Associations(of: host).keys.count == 1)
    Associations(of: host)[key] = true
    #expect(Associations(of: host)[key] == true)
  }

  @Test func boxedValuesRoundTrip() {
    let host = Host()
    enum List: AssociatedKey { typealias Value = [Int]? }
    enum Nested: AssociatedKey { typealias Value = Int?? }
    enum Closure: AssociatedKey { typealias Value = (@Sendable () -> Int)? }
    let list = List.self
    let optional = Nested.self
    let closure = Closure.self
    Associations(of: host)[list] = [1, 2, 3]
    Associations(of: host)[optional] = .some(nil)
    Associations(of: host)[closure] = { 42 }
    #expect(Associations(of: host)[list] == [1, 2, 3])
    #expect(Associations(of: host)[optional] == .some(nil))
    #expect(Associations(of: host)[closure]?() == 42)
  }

  @Test func classBoundExistentialValuesRoundTrip() {
    let host = Host()
    enum Key: AssociatedKey { typealias Value = (any Capability)? }
    enum AnyObjectKey: AssociatedKey { typealias Value = (any AnyObject & Sendable)? }
    let key = Key.self
    let anyObject = AnyObjectKey.self
    let recorder = Recorder()
    Associations(of: host)[key] = recorder
    Associations(of: host)[anyObject] = recorder
    #expect(Associations(of: host)[key] === recorder)
    #expect(Associations(of: host)[anyObject] === recorder)
  }

  @Test func manyKeysOnOneHostKeepTheirOwnValues() {
    let host = Host()
    enum Root {}
    let keys = manyKeys(40, of: Int.self, under: Root.self)
    for (index, key) in keys.enumerated() { Associations(of: host)[key] = index }
    for (index, key) in keys.enumerated() where index.isMultiple(of: 3) {
      Associations(of: host)[key] = nil
    }
    for (index, key) in keys.enumerated() {
      #expect(Associations(of: host)[key] == (index.isMultiple(of: 3) ? nil : index))
    }
    #expect(Associations(of: host).keys.count == keys.count - 14)
  }
}

/// A key with a default reads it while nothing is attached, and `+=` starts from it.
@Suite struct DefaultValueTests {
  @Test func aMissingValueReadsAsTheDefaultWithoutBeingStored() {
    enum Count: AssociatedKey { static let defaultValue = 5 }
    let host = Host()
    #expect(Associations(of: host)[Count.self] == 5)
    #expect(!Associations(of: host).hasValue(for: Count.self))
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func compoundAssignmentStartsFromTheDefault() {
    enum Count: AssociatedKey { static let defaultValue = 10 }
    let host = Host()
    Associations(of: host)[Count.self] += 1
    Associations(of: host)[Count.self] += 1
    #expect(Associations(of: host)[Count.self] == 12)
    #expect(Associations(of: host).hasValue(for: Count.self))
  }

  @Test func aStoredValueWinsOverTheDefault() {
    enum Count: AssociatedKey { static let defaultValue = 0 }
    let host = Host()
    Associations(of: host)[Count.self] = 3
    #expect(Associations(of: host)[Count.self] == 3)
  }

  @Test func storingTheDefaultStoresAValue() {
    enum Count: AssociatedKey { static let defaultValue = 0 }
    let host = Host()
    Associations(of: host)[Count.self] = 0
    #expect(Associations(of: host).hasValue(for: Count.self))
    #expect(Associations(of: host).keys.count == 1)
  }
}
