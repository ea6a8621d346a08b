import Affix
import Synchronization
import Testing

@Suite struct IdentityTests {
  @Test func hostsWhoseEqualityAndHashingTrapWork() {
    let lifetimes = Lifetimes()
    let number = AssociatedKey<Int>("number")
    let value = AssociatedKey<Tracked>("value")
    let seen = Recording<Int?>()
    do {
      let hosts = (0..<20).map { _ in TrappingHost() }
      for (index, host) in hosts.enumerated() {
        Associations(of: host)[number] = index
        Associations(of: host)[value] = lifetimes.make(index)
      }
      let token = Associations(of: hosts[0]).observe(number) { seen.append($0) }
      Associations(of: hosts[0])[number] = 100
      #expect(Associations(of: hosts[1]).removeValue(for: number) == 1)
      #expect(Associations(of: hosts[2]).value(for: number) { -1 } == 2)
      Associations(of: hosts[3]).attach(Recorder())
      #expect(Associations(of: hosts[3]).capability(Recorder.self) != nil)
      #expect(Associations(of: hosts[4]).keys.count == 2)
      for (index, host) in hosts.enumerated().dropFirst(2) {
        #expect(Associations(of: host)[number] == index)
        #expect(Associations(of: host)[value]?.id == index)
      }
      _ = AssociationTable.statistics
      token.cancel()
    }
    #expect(seen.values == [100])
    #expect(sweepUntil { lifetimes.alive == 0 })
  }

  @Test func keysWithTheSameNameAndTypeAreDistinct() {
    let first = AssociatedKey<String>("name")
    let second = AssociatedKey<String>("name")
    #expect(first != second)
    #expect(first == first)
    #expect(Set([first, second, first]).count == 2)
    let host = Host()
    Associations(of: host)[first] = "first"
    #expect(Associations(of: host)[second] == nil)
    Associations(of: host)[second] = "second"
    #expect(Associations(of: host)[first] == "first")
    #expect(Associations(of: host).removeValue(for: first) == "first")
    #expect(Associations(of: host)[second] == "second")
  }

  @Test func unnamedKeysOfOneTypeAreDistinct() {
    let keys = (0..<100).map { _ in AssociatedKey<Int>() }
    let host = Host()
    for (index, key) in keys.enumerated() { Associations(of: host)[key] = index }
    for (index, key) in keys.enumerated() { #expect(Associations(of: host)[key] == index) }
  }

  @Test func aNewKeyNeverReadsAReleasedKeysValues() {
    let host = Host()
    for round in 0..<1_000 {
      let key = AssociatedKey<Int>("reborn")
      #expect(Associations(of: host)[key] == nil, "round \(round)")
      Associations(of: host)[key] = round
    }
  }

  @Test func aKeyOutlivedByItsValueIsStillListed() {
    let host = Host()
    do {
      let key = AssociatedKey<Int>("short-lived")
      Associations(of: host)[key] = 1
    }
    #expect(Associations(of: host).keys.count == 1)
  }

  @Test func removingOneClientsKeyLeavesAnothersValues() {
    let host = Host()
    let mine = AssociatedKey<Int>("mine")
    let theirs = AssociatedKey<Int>("theirs")
    let theirText = AssociatedKey<String>("theirText")
    Associations(of: host)[mine] = 1
    Associations(of: host)[theirs] = 2
    Associations(of: host)[theirText] = "kept"
    Associations(of: host).attach(Recorder())
    Associations(of: host).attach(Marker())
    Associations(of: host).removeValue(for: mine)
    Associations(of: host).detach(Recorder.self)
    #expect(Associations(of: host)[mine] == nil)
    #expect(Associations(of: host)[theirs] == 2)
    #expect(Associations(of: host)[theirText] == "kept")
    #expect(Associations(of: host).capability(Marker.self) != nil)
    #expect(Associations(of: host).keys.count == 3)
  }

  @Test func theSameKeyOnDifferentHostsIsIndependent() {
    let key = AssociatedKey<Int>()
    let hosts = (0..<50).map { _ in Host() }
    for (index, host) in hosts.enumerated() { Associations(of: host)[key] = index }
    Associations(of: hosts[7])[key] = nil
    for (index, host) in hosts.enumerated() {
      #expect(Associations(of: host)[key] == (index == 7 ? nil : index))
    }
  }
}

@Suite struct EnumerationTests {
  @Test func keysListExactlyTheKeysWithValues() {
    let host = Host()
    let a = AssociatedKey<Int>("a")
    let b = AssociatedKey<String>("b")
    let c = AssociatedKey<Tracked>("c")
    #expect(Associations(of: host).keys.isEmpty)
    Associations(of: host)[a] = 1
    Associations(of: host)[b] = "b"
    Associations(of: host)[c] = Tracked()
    Associations(of: host)[b] = nil
    let keys = Associations(of: host).keys
    #expect(keys.count == 2)
    #expect(keys.contains { $0.describes(a) })
    #expect(keys.contains { $0.describes(c) })
    #expect(!keys.contains { $0.describes(b) })
    #expect(Set(keys.compactMap(\.name)) == ["a", "c"])
    #expect(keys.first { $0.describes(a) }?.valueType == Int.self)
    #expect(keys.first { $0.describes(a) }?.policy == .strong)
  }

  @Test func keysOfAHostWithoutValuesAreEmpty() {
    #expect(Associations(of: Host()).keys.isEmpty)
    #expect(Associations(of: Host()).capabilities.isEmpty)
  }

  @Test func keysOfAnotherHostAreNotListed() {
    let a = Host()
    let b = Host()
    let key = AssociatedKey<Int>("only-a")
    Associations(of: a)[key] = 1
    #expect(Associations(of: b).keys.isEmpty)
  }

  @Test func keysDoNotListAWeakKeyWhoseValueDied() {
    let host = Host()
    let key = AssociatedKey<Tracked>.weak("delegate")
    do {
      let delegate = Tracked()
      Associations(of: host)[key] = delegate
      #expect(Associations(of: host).keys.count == 1)
      #expect(Associations(of: host).keys.first?.policy == .weak)
    }
    #expect(Associations(of: host)[key] == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func capabilitiesListOnlyAttachedCapabilities() {
    let host = Host()
    let key = AssociatedKey<Recorder>("not a capability slot")
    Associations(of: host)[key] = Recorder()
    #expect(Associations(of: host).capabilities.isEmpty)
    Associations(of: host).attach(Recorder(1))
    Associations(of: host).attach(Marker())
    #expect(Associations(of: host).capabilities.count == 2)
    Associations(of: host).detach(Marker.self)
    let listed = Associations(of: host).capabilities
    #expect(listed.count == 1)
    #expect((listed.first as? Recorder)?.id == 1)
    #expect(Associations(of: host).keys.count == 2)
  }
}
