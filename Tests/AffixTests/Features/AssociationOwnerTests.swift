import Affix
import AffixTestSupport
import Synchronization
import Testing

/// Reaches a host only through a generic parameter, as library code does.
private func write<T: AnyObject, Key: AssociatedKey>(
  _ number: Int, to host: T, under key: Key.Type
) where Key.Value == Int? {
  Associations(of: host)[key] = number
}

private func read<T: AnyObject, Key: AssociatedKey>(_ key: Key.Type, of host: T) -> Int?
where Key.Value == Int? {
  Associations(of: host)[key]
}

private func attachTracked<T: AnyObject, Key: AssociatedKey>(
  _ tracked: Tracked, to host: T, key: Key.Type
) where Key.Value == Tracked? {
  Associations(of: host)[key] = tracked
}

@Suite struct AssociationOwnerTests {
  enum Number: AssociatedKey { typealias Value = Int? }
  let number = Number.self
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
  let value = TrackedValue.self

  @Test func anOwnersValuesAreReleasedExactlyAtItsDeinit() {
    let lifetimes = Lifetimes()
    let capabilityReleased = Flag()
    weak var weakOwner: OwningHost?
    do {
      let owner = OwningHost()
      weakOwner = owner
      Associations(of: owner)[value] = lifetimes.make()
      enum Text: AssociatedKey { typealias Value = String? }
      Associations(of: owner)[Text.self] = "text"
      Associations(of: owner).attach(Recorder { capabilityReleased.set() })
      #expect(lifetimes.alive == 1)
    }
    #expect(isDeallocated { weakOwner })
    // No sweep: the storage died with its owner.
    #expect(lifetimes.alive == 0)
    #expect(capabilityReleased.isSet)
  }

  @Test func aGenericPathReadsWhatTheConcreteTypeWrote() {
    let owner = OwningHost()
    Associations(of: owner)[number] = 1
    #expect(read(number, of: owner) == 1)
    #expect(read(number, of: owner as AnyObject) == 1)
    #expect(owner.associationStorage === owner.associationStorage)
  }

  @Test func theConcreteTypeReadsWhatAGenericPathWrote() {
    let owner = OwningHost()
    write(2, to: owner, under: number)
    #expect(Associations(of: owner)[number] == 2)
    write(3, to: owner as AnyObject, under: number)
    #expect(Associations(of: owner)[number] == 3)
  }

  @Test func valuesWrittenThroughAGenericPathAreReleasedAtDeinit() {
    let lifetimes = Lifetimes()
    do {
      let owner = OwningHost()
      attachTracked(lifetimes.make(), to: owner, key: value)
      enum Other: AssociatedKey { typealias Value = Tracked? }
      attachTracked(lifetimes.make(), to: owner as AnyObject, key: Other.self)
      #expect(lifetimes.alive == 2)
    }
    // Had a generic path put them in the shared table, they would wait for a sweep.
    #expect(lifetimes.alive == 0)
  }

  @Test func ownersOfOneTypeKeepSeparateValues() {
    let first = OwningHost()
    let second = OwningHost()
    Associations(of: first)[number] = 1
    write(2, to: second, under: number)
    #expect(read(number, of: first) == 1)
    #expect(Associations(of: second)[number] == 2)
  }

  @Test func ownersSupportTheWholeAPI() {
    let owner = OwningHost()
    let seen = Recording<Int?>()
    let token = Associations(of: owner).observe(number, nonisolated: { seen.append($0) })
    #expect(Associations(of: owner).value(for: number) { 4 } == 4)
    #expect(Associations(of: owner).removeValue(for: number) == 4)
    Associations(of: owner).attach(Marker())
    #expect(Associations(of: owner).capabilities.count == 1)
    #expect(Associations(of: owner).keys.count == 1)
    token.cancel()
    #expect(seen.values == [4, nil])
  }
}
