import Affix
import Synchronization
import Testing

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
    let calls = Locked(0)
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
    let released = Locked(false)
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[object] = Tracked { released.withLock { $0 = true } }
    }
    #expect(weakHost == nil)
    #expect(sweepUntil { released.withLock { $0 } })
  }

  @Test func keysListsAttachedKeys() {
    let host = Host()
    Associations(of: host)[number] = 1
    Associations(of: host)[text] = "x"
    let names = Set(Associations(of: host).keys.compactMap(\.name))
    #expect(names == ["number", "text"])
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
    let double = AssociatedKey<Double>()
    let flag = AssociatedKey<Bool>()
    let point = AssociatedKey<Point>()
    let direction = AssociatedKey<Direction>()
    let zero = AssociatedKey<Int>()
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
  }

  @Test func anInlineOptionalHoldingNilDiffersFromNoValue() {
    let host = Host()
    let key = AssociatedKey<Bool?>()
    #expect(Associations(of: host)[key] == nil)
    Associations(of: host)[key] = .some(nil)
    #expect(Associations(of: host)[key] == .some(nil))
    #expect(Associations(of: host).keys.count == 1)
    Associations(of: host)[key] = true
    #expect(Associations(of: host)[key] == true)
  }

  @Test func boxedValuesRoundTrip() {
    let host = Host()
    let list = AssociatedKey<[Int]>()
    let optional = AssociatedKey<Int?>()
    let closure = AssociatedKey<@Sendable () -> Int>()
    Associations(of: host)[list] = [1, 2, 3]
    Associations(of: host)[optional] = .some(nil)
    Associations(of: host)[closure] = { 42 }
    #expect(Associations(of: host)[list] == [1, 2, 3])
    #expect(Associations(of: host)[optional] == .some(nil))
    #expect(Associations(of: host)[closure]?() == 42)
  }

  @Test func classBoundExistentialValuesRoundTrip() {
    let host = Host()
    let key = AssociatedKey<any Capability>()
    let anyObject = AssociatedKey<AnyObject>()
    let recorder = Recorder()
    Associations(of: host)[key] = recorder
    Associations(of: host)[anyObject] = recorder
    #expect(Associations(of: host)[key] === recorder)
    #expect(Associations(of: host)[anyObject] === recorder)
  }

  @Test func manyKeysOnOneHostKeepTheirOwnValues() {
    let host = Host()
    let keys = (0..<40).map { AssociatedKey<Int>("k\($0)") }
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

@Suite struct DefaultSubscriptTests {
  let count = AssociatedKey<Int>("count")

  @Test func aMissingValueReadsAsTheDefaultWithoutBeingStored() {
    let host = Host()
    #expect(Associations(of: host)[count, default: 5] == 5)
    #expect(Associations(of: host)[count] == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func compoundAssignmentStartsFromTheDefault() {
    let host = Host()
    Associations(of: host)[count, default: 10] += 1
    Associations(of: host)[count, default: 10] += 1
    #expect(Associations(of: host)[count] == 12)
  }

  @Test func aStoredValueWinsOverTheDefault() {
    let host = Host()
    Associations(of: host)[count] = 3
    #expect(Associations(of: host)[count, default: 0] == 3)
  }
}
