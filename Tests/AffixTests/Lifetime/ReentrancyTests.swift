import Affix
import AffixTestSupport
import Synchronization
import Testing

@Suite struct ReentrancyTests {
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
  let value = TrackedValue.self
  enum Number: AssociatedKey { typealias Value = Int? }
  let number = Number.self
  enum Text: AssociatedKey { typealias Value = String? }
  let text = Text.self

  @Test func aReplacedValuesDeinitCanUseTheSameHost() {
    let host = Host()
    let seen = Recording<Int?>()
    let number = self.number
    let value = self.value
    Associations(of: host)[number] = 1
    Associations(of: host)[value] = Tracked(1) {
      seen.append(Associations(of: host)[number])
      seen.append(Associations(of: host)[value]?.id)
      Associations(of: host)[number] = 2
    }
    Associations(of: host)[value] = Tracked(2)
    // The replaced value's deinit runs in the sweep that releases it.
    AssociationTable.sweep()
    #expect(seen.values == [1, 2])
    #expect(Associations(of: host)[number] == 2)
  }

  @Test func aRemovedValuesDeinitCanRemoveOtherValues() {
    let host = Host()
    let text = self.text
    Associations(of: host)[text] = "other"
    Associations(of: host)[value] = Tracked {
      Associations(of: host).removeValue(for: text)
    }
    Associations(of: host).removeValue(for: value)
    AssociationTable.sweep()
    #expect(Associations(of: host).keys.isEmpty)
  }

  @Test func aSweptValuesDeinitCanUseTheTableAndSweepAgain() {
    let survivor = Host()
    let number = self.number
    let value = self.value
    let done = Flag()
    do {
      let host = Host()
      Associations(of: host)[value] = Tracked {
        Associations(of: survivor)[number] = 7
        let fresh = Host()
        Associations(of: fresh)[value] = Tracked()
        _ = Associations(of: fresh).value(for: number) { 3 }
        _ = AssociationTable.statistics
        AssociationTable.sweep()
        done.set()
      }
    }
    #expect(sweepUntil { done.isSet })
    #expect(Associations(of: survivor)[number] == 7)
  }

  @Test func anOwnersValueDeinitCanUseTheTable() {
    let survivor = Host()
    let number = self.number
    do {
      let owner = OwningHost()
      Associations(of: owner)[value] = Tracked {
        Associations(of: survivor)[number] = Associations(of: survivor)[number].map { $0 + 1 } ?? 1
      }
    }
    #expect(Associations(of: survivor)[number] == 1)
  }

  @Test func aFactoryCanReadAndWriteTheHostItCreatesFor() {
    let host = Host()
    let other = Host()
    let made = Associations(of: host).value(for: value) {
      // The host has no storage yet: the factory creates it.
      Associations(of: host)[number] = 1
      Associations(of: other)[number] = 2
      #expect(Associations(of: host)[value] == nil)
      return Tracked(Associations(of: host)[number] ?? -1)
    }
    #expect(made.id == 1)
    #expect(Associations(of: host)[value] === made)
    #expect(Associations(of: other)[number] == 2)
  }

  @Test func aValueStoredByItsOwnFactoryWinsOverTheFactorysResult() {
    let host = Host()
    let lifetimes = Lifetimes()
    let inner = lifetimes.make(1)
    let got = Associations(of: host).value(for: value) {
      Associations(of: host)[value] = inner
      return lifetimes.make(2)
    }
    #expect(got === inner)
    #expect(Associations(of: host)[value] === inner)
    #expect(lifetimes.alive == 1)
  }

  @Test func nestedFactoriesForDifferentKeysBothStore() {
    let host = Host()
    let outer = Associations(of: host).value(for: text) {
      let inner = Associations(of: host).value(for: number) { 41 }
      return "\(inner + 1)"
    }
    #expect(outer == "42")
    #expect(Associations(of: host)[number] == 41)
  }

  @Test func didEndCanUseTheHostsStorage() {
    final class Detacher: Capability {
      let onDetach: @Sendable () -> Void
      init(_ onDetach: @escaping @Sendable () -> Void) { self.onDetach = onDetach }
      func didEnd(_ ending: CapabilityEnding) { onDetach() }
    }
    let host = Host()
    let number = self.number
    let seen = Recording<Bool>()
    Associations(of: host).attach(
      Detacher {
        seen.append(Associations(of: host).capability(Detacher.self) == nil)
        Associations(of: host)[number] = 5
      })
    Associations(of: host).removeCapability(Detacher.self)
    #expect(seen.values == [true])
    #expect(Associations(of: host)[number] == 5)
  }
}
