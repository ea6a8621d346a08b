import Affix
import AffixTestSupport
import Testing

/// A capability that records what it hears of its lifecycle, and whether its host read back
/// alive when it was attached.
private final class Witness: Capability {
  let events = Recording<String>()

  func didAttach(to host: AnyWeakReference) {
    events.append(host.object == nil ? "attached to nothing" : "attached")
  }

  func didEnd(_ ending: CapabilityEnding) {
    events.append("ended: \(ending)")
  }
}

/// An owner of its storage, whose values die with it.
private final class DyingOwner: AssociationOwner {
  let associationStorage = AssociationStorage()
}

@Suite struct CapabilityLifecycleTests {
  @Test func attachingTellsTheCapabilityItsLiveHostOnce() {
    let host = Host()
    let witness = Witness()
    Associations(of: host).attach(witness)
    Associations(of: host).attach(witness)  // the same one again: no second attachment
    #expect(witness.events.values == ["attached"])
    Associations(of: host).removeCapability(Witness.self)
  }

  @Test func detachingEndsTheCapabilityAsDetached() {
    let host = Host()
    let witness = Associations(of: host).attach(Witness())
    Associations(of: host).removeCapability(Witness.self)
    #expect(witness.events.values == ["attached", "ended: removed"])
  }

  @Test func attachingAnotherOfTheTypeEndsTheFirstAsReplaced() {
    let host = Host()
    let first = Associations(of: host).attach(Witness())
    let second = Associations(of: host).attach(Witness())
    #expect(first.events.values == ["attached", "ended: replaced"])
    #expect(second.events.values == ["attached"])
    Associations(of: host).removeCapability(Witness.self)
  }

  @Test func getOrAttachAttachesOnlyWhatItStores() {
    let host = Host()
    let stored = Associations(of: host).capability(Witness.self) { Witness() }
    let again = Associations(of: host).capability(Witness.self) { Witness() }
    #expect(stored === again)
    #expect(stored.events.values == ["attached"])
    Associations(of: host).removeCapability(Witness.self)
  }

  @Test func theDeathOfAHostInTheSharedTableEndsItsCapabilityByTheNextSweep() {
    let witness = Witness()
    do {
      let host = Host()
      Associations(of: host).attach(witness)
    }
    #expect(sweepUntil { witness.events.count == 2 })
    #expect(witness.events.values == ["attached", "ended: host died"])
  }

  @Test func theDeathOfAnOwnerEndsItsCapabilityAtOnce() {
    let witness = Witness()
    do {
      let owner = DyingOwner()
      Associations(of: owner).attach(witness)
    }
    AssociationTable.sweep()
    #expect(witness.events.values == ["attached", "ended: host died"])
  }

  @Test func aDetachedCapabilityDoesNotHearOfItsFormerHostsDeath() {
    let witness = Witness()
    do {
      let host = Host()
      Associations(of: host).attach(witness)
      Associations(of: host).removeCapability(Witness.self)
    }
    AssociationTable.sweep()
    #expect(witness.events.values == ["attached", "ended: removed"])
  }

  @Test func aCapabilityWrittenBeforeDidEndStillHearsDidDetach() {
    let host = Host()
    let recorder = Associations(of: host).attach(Recorder())
    Associations(of: host).attach(Recorder())
    #expect(recorder.detachments == 1)
    let replacement = Associations(of: host).removeCapability(Recorder.self)
    #expect(replacement?.detachments == 1)
  }

  @Test func aReplacementRemovedByTheReplacedOnesEndHearsItsAttachmentFirst() {
    let host = Host()
    let first = Associations(of: host).attach(Remover(host: host))
    let second = Remover(host: nil)
    Associations(of: host).attach(second)
    #expect(first.events.values == ["attached", "ended: replaced"])
    #expect(second.events.values == ["attached", "ended: removed"])
    #expect(Associations(of: host).capability(Remover.self) == nil)
  }

  @Test func aCapabilityRemovingItselfInDidAttachEndsOnceAfterIt() {
    let host = Host()
    let remover = Associations(of: host).attach(SelfRemover(host: host))
    #expect(remover.events.values == ["attached", "ended: removed"])
    #expect(Associations(of: host).capability(SelfRemover.self) == nil)
  }
}

/// A capability whose end removes the capability of its type that replaced it.
private final class Remover: Capability {
  let events = Recording<String>()
  private let host: Host?

  init(host: Host?) { self.host = host }

  func didAttach(to host: AnyWeakReference) { events.append("attached") }

  func didEnd(_ ending: CapabilityEnding) {
    events.append("ended: \(ending)")
    if let host, ending == .replaced { Associations(of: host).removeCapability(Remover.self) }
  }
}

/// A capability that removes itself as soon as it is attached.
private final class SelfRemover: Capability {
  let events = Recording<String>()
  private let host: Host

  init(host: Host) { self.host = host }

  func didAttach(to host: AnyWeakReference) {
    events.append("attached")
    Associations(of: self.host).removeCapability(SelfRemover.self)
  }

  func didEnd(_ ending: CapabilityEnding) { events.append("ended: \(ending)") }
}
