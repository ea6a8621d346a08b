import Affix
import Testing

// Keys declared as types. Each test uses hosts of its own, so tests running in parallel share
// the key types but never a value.

private enum TapCount: AssociatedValueKey {
  typealias Value = Int
}

private enum ClickCount: AssociatedValueKey {
  typealias Value = Int
}

private enum Title: AssociatedValueKey {
  typealias Value = String
}

private enum Owner: AssociatedValueKey {
  typealias Value = Tracked
}

private enum Listener: WeakAssociatedValueKey {
  typealias Value = Tracked
}

private enum Tagged<Tag>: AssociatedValueKey {
  typealias Value = Int
}

/// A type that is both a capability and a key, so that both can be attached under it.
private final class Badge: Capability, AssociatedValueKey {
  typealias Value = Int
  func didDetach() {}
}

@Suite struct AssociatedValueKeyTests {
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
    #expect(Associations(of: host).removeValue(for: TapCount.self) == nil)
    Associations(of: host)[Title.self] = nil
    #expect(Associations(of: host)[Title.self] == nil)
    #expect(Associations(of: host)[Owner.self] === owner)
  }

  @Test func theDefaultSubscriptAndGetOrCreateWork() {
    let host = Host()
    Associations(of: host)[TapCount.self, default: 10] += 1
    Associations(of: host)[TapCount.self, default: 10] += 1
    #expect(Associations(of: host)[TapCount.self] == 12)
    #expect(Associations(of: host).value(for: Title.self) { "made" } == "made")
    #expect(Associations(of: host).value(for: Title.self) { "made again" } == "made")
  }

  @Test func keyTypesNeverCollideWithEachOtherKeysOrCapabilities() {
    let host = Host()
    let tapCount = AssociatedKey<Int>("TapCount")
    Associations(of: host)[TapCount.self] = 1
    Associations(of: host)[ClickCount.self] = 2
    Associations(of: host)[tapCount] = 3
    Associations(of: host)[Tagged<Int>.self] = 4
    Associations(of: host)[Tagged<String>.self] = 5
    let badge = Associations(of: host).attach(Badge())
    Associations(of: host)[Badge.self] = 6
    #expect(Associations(of: host)[TapCount.self] == 1)
    #expect(Associations(of: host)[ClickCount.self] == 2)
    #expect(Associations(of: host)[tapCount] == 3)
    #expect(Associations(of: host)[Tagged<Int>.self] == 4)
    #expect(Associations(of: host)[Tagged<String>.self] == 5)
    #expect(Associations(of: host)[Badge.self] == 6)
    #expect(Associations(of: host).capability(Badge.self) === badge)
    #expect(Associations(of: host).capabilities.count == 1)
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
    let listener = keys.first { $0.describes(Listener.self) }
    #expect(listener?.policy == .weak)
    #expect(!keys.contains { $0.describes(ClickCount.self) })
    withExtendedLifetime(target) {}
  }

  @Test func aWeakKeyTypeHoldsItsValueWeakly() {
    let host = Host()
    let lifetimes = Lifetimes()
    do {
      let target = lifetimes.make()
      Associations(of: host)[Listener.self] = target
      #expect(Associations(of: host)[Listener.self] === target)
    }
    #expect(lifetimes.alive == 0)
    #expect(Associations(of: host)[Listener.self] == nil)
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

  @Test func anObserverOfAKeyTypeSeesItsChanges() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(TapCount.self) { seen.append($0) }
    Associations(of: host)[TapCount.self] = 1
    Associations(of: host)[ClickCount.self] = 5
    Associations(of: host)[TapCount.self] = nil
    token.cancel()
    Associations(of: host)[TapCount.self] = 2
    #expect(seen.values == [1, nil])
  }
}
