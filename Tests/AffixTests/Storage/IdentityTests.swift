import Affix
import AffixTestSupport
import Synchronization
import Testing

@Suite struct IdentityTests {
  @Test func hostsWhoseEqualityAndHashingTrapWork() {
    let lifetimes = Lifetimes()
    enum Number: AssociatedKey { typealias Value = Int? }
    let number = Number.self
    enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
    let value = TrackedValue.self
    let seen = Recording<Int?>()
    do {
      let hosts = (0..<20).map { _ in TrappingHost() }
      for (index, host) in hosts.enumerated() {
        Associations(of: host)[number] = index
        Associations(of: host)[value] = lifetimes.make(index)
      }
      let token = Associations(of: hosts[0]).observe(number, nonisolated: { seen.append($0) })
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
    enum First {
      enum Name: AssociatedKey { typealias Value = String? }
    }
    enum Second {
      enum Name: AssociatedKey { typealias Value = String? }
    }
    let first = First.Name.self
    let second = Second.Name.self
    let host = Host()
    Associations(of: host)[first] = "first"
    #expect(Associations(of: host)[second] == nil)
    Associations(of: host)[second] = "second"
    #expect(Associations(of: host)[first] == "first")
    #expect(Associations(of: host).removeValue(for: first) == "first")
    #expect(Associations(of: host)[second] == "second")
  }

  @Test func keysOfOneValueTypeAreDistinct() {
    enum Root {}
    let keys = manyKeys(100, of: Int.self, under: Root.self)
    let host = Host()
    for (index, key) in keys.enumerated() { Associations(of: host)[key] = index }
    for (index, key) in keys.enumerated() { #expect(Associations(of: host)[key] == index) }
  }

  @Test func removingOneClientsKeyLeavesAnothersValues() {
    let host = Host()
    enum Mine: AssociatedKey { typealias Value = Int? }
    let mine = Mine.self
    enum Theirs: AssociatedKey { typealias Value = Int? }
    let theirs = Theirs.self
    enum TheirText: AssociatedKey { typealias Value = String? }
    let theirText = TheirText.self
    Associations(of: host)[mine] = 1
    Associations(of: host)[theirs] = 2
    Associations(of: host)[theirText] = "kept"
    Associations(of: host).attach(Recorder())
    Associations(of: host).attach(Marker())
    Associations(of: host).removeValue(for: mine)
    Associations(of: host).removeCapability(Recorder.self)
    #expect(Associations(of: host)[mine] == nil)
    #expect(Associations(of: host)[theirs] == 2)
    #expect(Associations(of: host)[theirText] == "kept")
    #expect(Associations(of: host).capability(Marker.self) != nil)
    #expect(Associations(of: host).keys.count == 3)
  }

  @Test func theSameKeyOnDifferentHostsIsIndependent() {
    enum TheKey: AssociatedKey { typealias Value = Int? }
    let key = TheKey.self
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
    enum A: AssociatedKey { typealias Value = Int? }
    let a = A.self
    enum B: AssociatedKey { typealias Value = String? }
    let b = B.self
    enum C: AssociatedKey { typealias Value = Tracked? }
    let c = C.self
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
    #expect(Set(keys.map(\.name)) == ["A", "C"])
    #expect(keys.first { $0.describes(a) }?.valueType == Int?.self)
    #expect(keys.first { $0.describes(a) }?.policy == .strong)
  }

  @Test func keysOfAHostWithoutValuesAreEmpty() {
    #expect(Associations(of: Host()).keys.isEmpty)
    #expect(Associations(of: Host()).capabilities.isEmpty)
  }

  @Test func keysOfAnotherHostAreNotListed() {
    let a = Host()
    let b = Host()
    enum TheKey: AssociatedKey { typealias Value = Int? }
    let key = TheKey.self
    Associations(of: a)[key] = 1
    #expect(Associations(of: b).keys.isEmpty)
  }

  @Test func keysDoNotListAWeakKeyWhoseValueDied() {
    let host = Host()
    enum TheKey: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let key = TheKey.self
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
    enum TheKey: AssociatedKey { typealias Value = Recorder? }
    let key = TheKey.self
    Associations(of: host)[key] = Recorder()
    #expect(Associations(of: host).capabilities.isEmpty)
    Associations(of: host).attach(Recorder(1))
    Associations(of: host).attach(Marker())
    #expect(Associations(of: host).capabilities.count == 2)
    Associations(of: host).removeCapability(Marker.self)
    let listed = Associations(of: host).capabilities
    #expect(listed.count == 1)
    #expect((listed.first as? Recorder)?.id == 1)
    #expect(Associations(of: host).keys.count == 2)
  }
}
