import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

/// A storage keeps two entries in itself and the rest in an overflow buffer that grows. An
/// inline entry taken by a key with inline values keeps that key after a removal, ready for its
/// return; one taken by any other key is freed for the next key; removing from the overflow
/// moves its last entry into the hole. These tests read every key back after each change, with
/// payloads of every representation on both sides of that boundary.
@Suite struct InlineAndOverflowEntriesTests {
  /// Twenty keys, cycling through the four payload representations: inline, object, weak and
  /// boxed. Key *i* has representation *i* % 4.
  struct MixedKeys {
    static let count = 20

    enum Tag {}

    let numbers = manyIntKeys(5, under: Tag.self)
    let objects = manyKeys(5, of: Tracked.self, under: Tag.self)
    let weaks = manyWeakKeys(5, under: Tag.self)
    let texts = manyKeys(5, of: String.self, under: Tag.self)

    /// Writes the value tagged `tag` under `key`; weak targets are kept alive in `targets`.
    func write<H>(_ tag: Int, _ key: Int, on view: Associations<H>, targets: inout [Int: Tracked]) {
      // The slot's index apart: an opened key and arithmetic in one expression defeat the
      // type checker.
      let slot = key / 4
      switch key % 4 {
      case 0: view[numbers[slot]] = tag
      case 1: view[objects[slot]] = Tracked(tag)
      case 2:
        let target = Tracked(tag)
        targets[key] = target
        view[weaks[slot]] = target
      default: view[texts[slot]] = "value \(tag)"
      }
    }

    /// The tag of the value under `key`, or nil.
    func read<H>(_ key: Int, on view: Associations<H>) -> Int? {
      let slot = key / 4
      return switch key % 4 {
      case 0: view[numbers[slot]].nilIfAbsent
      case 1: view[objects[slot]]?.id
      case 2: view[weaks[slot]]?.id
      default: view[texts[slot]].flatMap { Int($0.dropFirst("value ".count)) }
      }
    }

    /// Removes the value under `key` and returns its tag.
    func remove<H>(_ key: Int, on view: Associations<H>) -> Int? {
      let slot = key / 4
      return switch key % 4 {
      case 0: view.removeValue(for: numbers[slot]).nilIfAbsent
      case 1: view.removeValue(for: objects[slot])?.id
      case 2: view.removeValue(for: weaks[slot])?.id
      default: view.removeValue(for: texts[slot]).flatMap { Int($0.dropFirst("value ".count)) }
      }
    }
  }

  /// Applies adds and removals to one host, checking every key against a dictionary after each.
  struct Checker<H: AnyObject> {
    let keys = MixedKeys()
    let host: H
    let view: (H) -> Associations<H>
    var model: [Int: Int] = [:]
    var targets: [Int: Tracked] = [:]
    var nextTag = 1

    mutating func add(_ key: Int) {
      keys.write(nextTag, key, on: view(host), targets: &targets)
      model[key] = nextTag
      nextTag += 1
      check("after adding key \(key)")
    }

    mutating func remove(_ key: Int) {
      let removed = keys.remove(key, on: view(host))
      #expect(removed == model[key], "removing key \(key)")
      model[key] = nil
      targets[key] = nil
      check("after removing key \(key)")
    }

    func check(_ step: String) {
      for key in 0..<MixedKeys.count {
        let read = keys.read(key, on: view(host))
        #expect(read == model[key], "key \(key) \(step)")
      }
      #expect(view(host).keys.count == model.count, "listed keys \(step)")
    }
  }

  /// Orders in which to add `count` keys and then remove them: in order, reversed, the first
  /// added removed last, and seeded shuffles; every permutation for up to three keys.
  static func orders(_ count: Int) -> [(add: [Int], remove: [Int])] {
    let keys = Array(0..<count)
    if count <= 3 {
      return permutations(keys).flatMap { add in permutations(keys).map { (add, $0) } }
    }
    var orders = [(keys, keys), (keys, keys.reversed()), (keys.reversed(), keys)]
    var rng = SplitMix64(seed: UInt64(count))
    for _ in 0..<4 {
      orders.append((keys.shuffled(using: &rng), keys.shuffled(using: &rng)))
    }
    return orders
  }

  static func permutations(_ elements: [Int]) -> [[Int]] {
    guard elements.count > 1 else { return [elements] }
    return elements.indices.flatMap { index in
      var rest = elements
      let first = rest.remove(at: index)
      return permutations(rest).map { [first] + $0 }
    }
  }

  /// Adds `add`, removes half of `remove` and adds them back, removes all of `remove`, then
  /// adds the first three of `add` again, checking every value after each step.
  static func exercise<H: AnyObject>(_ host: H, adding add: [Int], removing remove: [Int]) {
    var checker = Checker(host: host) { Associations(of: $0) }
    for key in add { checker.add(key) }
    // Half the keys go and come back, so that re-added keys land past the moved ones.
    let half = remove.prefix(remove.count / 2)
    for key in half { checker.remove(key) }
    for key in half.reversed() { checker.add(key) }
    for key in remove { checker.remove(key) }
    for key in add.prefix(3) { checker.add(key) }
  }

  @Test(arguments: [1, 2, 3, 7, 20])
  func everyValueReadsBackAfterEachAddAndRemove(count: Int) {
    for (add, remove) in Self.orders(count) {
      Self.exercise(Host(), adding: add, removing: remove)
    }
  }

  @Test(arguments: [1, 2, 3, 7, 20])
  func anOwnersValuesReadBackAfterEachAddAndRemove(count: Int) {
    for (add, remove) in Self.orders(count) {
      Self.exercise(OwningHost(), adding: add, removing: remove)
    }
  }

  @Test func anEmptiedInlineEntryWaitsForItsKeyAndAFreedOneTakesTheNext() {
    var checker = Checker(host: Host()) { Associations(of: $0) }
    for key in [0, 1, 2, 3, 5] { checker.add(key) }
    // Key 0 (an Int) keeps the first inline entry; key 1 (an object) frees the second.
    checker.remove(0)
    checker.remove(1)
    // Key 6 (weak) takes the freed entry; key 7 (boxed) goes to the overflow after key 5.
    checker.add(6)
    checker.add(7)
    checker.remove(2)
    checker.remove(5)
    // Key 0 comes back to its entry; key 4 (another Int) finds both taken.
    checker.add(0)
    checker.add(4)
    checker.remove(6)
    checker.add(8)
    checker.remove(0)
    checker.add(0)
  }

  @Test func aHostWhoseInlineEntriesWaitForRemovedKeysStillTakesValues() {
    var checker = Checker(host: Host()) { Associations(of: $0) }
    checker.add(0)
    checker.add(4)
    checker.remove(0)
    checker.remove(4)
    #expect(Associations(of: checker.host).keys.isEmpty)
    for key in [8, 12, 16, 1, 2, 3] { checker.add(key) }
    checker.add(4)
    checker.add(0)
    for key in [8, 0, 12, 4, 16] { checker.remove(key) }
  }

  @Test func removingTheLastOverflowEntryLeavesTheInlineEntriesAlone() {
    var checker = Checker(host: Host()) { Associations(of: $0) }
    for key in [4, 9, 14] { checker.add(key) }
    checker.remove(14)
    checker.add(14)
    checker.remove(14)
    checker.remove(9)
    checker.remove(4)
    checker.add(19)
  }

  @Test func aHostGrowingPastSeveralBuffersKeepsEveryValue() {
    enum Root {}
    let keys = manyIntKeys(40, under: Root.self)
    let host = Host()
    for (index, key) in keys.enumerated() {
      Associations(of: host)[key] = index
      #expect(keys.prefix(index + 1).enumerated().allSatisfy { Associations(of: host)[$1] == $0 })
    }
    for (index, key) in keys.enumerated().reversed() where index.isMultiple(of: 2) {
      Associations(of: host).removeValue(for: key)
    }
    for (index, key) in keys.enumerated() {
      #expect(
        Associations(of: host)[key].nilIfAbsent == (index.isMultiple(of: 2) ? nil : index))
    }
  }

  @Test func objectValuesOnBothSidesOfTheBoundaryAreReleasedWithTheirHost() {
    enum Root {}
    let keys = manyKeys(10, of: Tracked.self, under: Root.self)
    let lifetimes = Lifetimes()
    do {
      let host = Host()
      for key in keys { Associations(of: host)[key] = lifetimes.make() }
      // A removal from each side releases that value alone, by the next sweep.
      Associations(of: host)[keys[0]] = nil
      Associations(of: host)[keys[7]] = nil
      AssociationTable.sweep()
      #expect(lifetimes.alive == 8)
    }
    #expect(sweepUntil { lifetimes.alive == 0 })
  }

  @Test func anOwnersValuesOnBothSidesOfTheBoundaryGoAtItsDeinit() {
    enum Root {}
    let keys = manyKeys(10, of: Tracked.self, under: Root.self)
    let lifetimes = Lifetimes()
    do {
      let host = OwningHost()
      for key in keys { Associations(of: host)[key] = lifetimes.make() }
      #expect(lifetimes.alive == 10)
    }
    #expect(lifetimes.alive == 0)
  }

  @Test func aWeakValueInTheOverflowReadsNilOnceItsTargetDies() {
    enum Root {}
    let numbers = manyIntKeys(3, under: Root.self)
    enum WeakValue: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let weak = WeakValue.self
    let host = Host()
    for (index, key) in numbers.enumerated() { Associations(of: host)[key] = index }
    do {
      let target = Tracked(1)
      Associations(of: host)[weak] = target
      #expect(Associations(of: host)[weak] === target)
    }
    #expect(Associations(of: host)[weak] == nil)
    #expect(Associations(of: host).keys.count == 3)
    // Moved into the hole that number 2 leaves in the overflow, it still reads nil.
    Associations(of: host).removeValue(for: numbers[2])
    #expect(Associations(of: host)[weak] == nil)
    #expect(Associations(of: host)[numbers[0]] == 0)
    #expect(Associations(of: host).keys.count == 2)
  }

  /// One thread adds and removes keys, emptying and refilling the inline entries and moving
  /// entries within the overflow; others read keys that never change, which keep moving, and
  /// keys that do, which must hold nothing or a value written under that very key. A reader of
  /// an inline entry checks no version: this is where an entry handed to another key while a
  /// reader looks at it would show.
  @Test func readersSeeOnlyTheirKeysValuesWhileEntriesEmptyFillAndMove() {
    let reads = scaled(100_000)
    enum Churn {}
    enum Stable {}
    let churn = manyIntKeys(6, under: Churn.self)
    let stable = manyIntKeys(4, under: Stable.self)
    enum StableObject: AssociatedKey { typealias Value = Tracked? }
    let stableObject = StableObject.self
    let object = Tracked(99)
    let host = Host()
    let owner = OwningHost()
    // Churn keys first: two of them take the inline entries and keep them, the rest share the
    // overflow with the stable keys, which their removals move.
    for (index, key) in churn.enumerated() {
      Associations(of: host)[key] = index << 32
      Associations(of: owner)[key] = index << 32
    }
    for (index, key) in stable.enumerated() {
      Associations(of: host)[key] = 1_000 + index
      Associations(of: owner)[key] = 1_000 + index
    }
    Associations(of: host)[stableObject] = object
    Associations(of: owner)[stableObject] = object
    let readersDone = Atomic<Int>(0)
    let failures = Recording<String>()

    // The writer keeps going until both readers are done, so that every read overlaps writes.
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      if thread == 0 {
        var rng = SplitMix64(seed: 0xB0DA)
        var operation = 0
        while readersDone.load(ordering: .acquiring) < 2 {
          let index = Int(rng.next() % UInt64(churn.count))
          let value = index << 32 | (operation & 0xFFFF_FFFF)
          if rng.next().isMultiple(of: 2) {
            Associations(of: host)[churn[index]] = value
            Associations(of: owner)[churn[index]] = value
          } else {
            Associations(of: host).removeValue(for: churn[index])
            Associations(of: owner).removeValue(for: churn[index])
          }
          operation += 1
        }
        return
      }
      defer { readersDone.add(1, ordering: .releasing) }
      for _ in 0..<reads {
        for (index, key) in stable.enumerated() {
          let read = Associations(of: host)[key]
          let ownerRead = Associations(of: owner)[key]
          if read != 1_000 + index || ownerRead != 1_000 + index {
            failures.append("stable \(index) read \(String(describing: (read, ownerRead)))")
          }
        }
        if Associations(of: host)[stableObject] !== object
          || Associations(of: owner)[stableObject] !== object
        {
          failures.append("the stable object read as another")
        }
        for (index, key) in churn.enumerated() {
          for read in [Associations(of: host)[key], Associations(of: owner)[key]].map(\.nilIfAbsent)
          {
            if let read, read >> 32 != index {
              failures.append("churn \(index) read a value of churn \(read >> 32)")
            }
          }
        }
        if failures.count > 10 { return }
      }
    }
    for failure in failures.values.prefix(10) { Issue.record(Comment(rawValue: failure)) }
  }
}
