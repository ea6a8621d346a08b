import Affix
import AffixTestSupport
import Testing

/// A class-bound protocol, as a user's hosts and their links are typed.
private protocol Node: AnyObject {
  var name: String { get }
}

private final class Card: Node {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Stage: Node {
  let name = "stage"
}

private enum Selected: AssociatedKey {
  static let defaultValue = false
}

/// `WeakReference` of a protocol type, and its identity: equal only when made from the same
/// object, stable after the object dies. `AFFIX_HOST_MODE=weak` and `hooked` run these on the
/// weak path, where an object's memory is freed while references to it live.
@Suite struct WeakReferenceIdentityTests {
  @Test func aReferenceOfAProtocolTypeReadsTheObjectBackWithoutUnsafe() {
    var card: Card? = Card("ace")
    let reference = WeakReference<any Node>(card)
    #expect(reference.object?.name == "ace")
    #expect(reference.object === card)
    card = nil
    #expect(reference.object == nil)
  }

  @Test func aSetOfReferencesIsASetOfObjects() {
    let ace = Card("ace")
    let king = Card("king")
    let stage = Stage()
    let nodes: [any Node] = [ace, king, stage, ace, stage]
    let references = Set(nodes.map { WeakReference<any Node>($0) })
    #expect(references.count == 3)
    #expect(references.contains(WeakReference<any Node>(king)))
    #expect(!references.contains(WeakReference<any Node>(Card("queen"))))
    withExtendedLifetime((ace, king, stage)) {}
  }

  @Test func referencesFromTheSameObjectAreEqualAndStayEqualAfterItDies() {
    var card: Card? = Card("ace")
    let first = WeakReference(card)
    let second = WeakReference(card)
    let erased = WeakReference<any Node>(card)
    let other = WeakReference(Card("king"))
    let hash = first.hashValue
    #expect(first == second)
    #expect(first != other)
    card = nil
    #expect(first == second, "equal after the object died")
    #expect(first.hashValue == hash, "the hash does not change when the object dies")
    #expect(second.hashValue == hash)
    #expect(first != other)
    #expect(erased.object == nil)
    #expect(AnyWeakReference(nil) == AnyWeakReference(nil))
    #expect(WeakReference<Card>(nil) == WeakReference<Card>(nil))
    #expect(first != WeakReference<Card>(nil))
  }

  @Test func anyWeakReferencesCompareAsTheirObjects() {
    let card = Card("ace")
    #expect(AnyWeakReference(card) == AnyWeakReference(card))
    #expect(AnyWeakReference(card) != AnyWeakReference(Card("king")))
    #expect(Set([AnyWeakReference(card), AnyWeakReference(card)]).count == 1)
  }

  /// New objects made while a reference to a dead one lives, until one takes the dead one's
  /// address or 10,000 were made: none of their references equals it. On the pinned path the
  /// reference's pin keeps the address, so no new object takes it; on the weak path the memory
  /// is free, and the address comes back.
  @Test func aDeadObjectsReferenceNeverEqualsOneToANewObjectAtItsAddress() {
    for hashedWhileAlive in [true, false] {
      var card: Card? = Card("ace")
      let address = ObjectIdentifier(card!)
      let dead = WeakReference(card)
      let hash = hashedWhileAlive ? dead.hashValue : nil
      card = nil
      var reused = false
      for _ in 0..<10_000 {
        let fresh = Card("fresh")
        let reference = WeakReference(fresh)
        #expect(reference != dead)
        if ObjectIdentifier(fresh) == address {
          reused = true
          break
        }
      }
      if let hash { #expect(dead.hashValue == hash) }
      if !HostMode.isWeak { #expect(!reused, "the pin keeps the dead object's address") }
    }
  }

  @Test func aValueThatIsNotAnObjectIsRefusedAndReadsNil() {
    struct Point { var x = 0 }
    let log = DiagnosticLog.capture {
      let reference = WeakReference<Any>(Point())
      #expect(reference.object == nil)
      #expect(reference == WeakReference<Any>(nil))
    }
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("is not a class instance") == true)
    let card = Card("ace")
    #expect(WeakReference<Any>(card).object as? Card === card)
  }

  @Test func associationsOfAProtocolTypedHostAreThoseOfItsClass() {
    let card = Card("ace")
    let node: any Node = card
    Associations(of: node)[Selected.self] = true
    #expect(Associations(of: card)[Selected.self])
    #expect(Associations(of: node)[Selected.self])
  }

  /// What a user writes: weak links to protocol-typed nodes, kept in a `Set` on a
  /// protocol-typed host.
  @Test func aProtocolTypedHostKeepsASetOfWeakLinks() {
    enum Links: AssociatedKey {
      static let defaultValue: Set<WeakReference<any Node & Sendable>> = []
    }
    final class Peer: Node, Sendable {
      let name: String
      init(_ name: String) { self.name = name }
    }
    let host: any Node = Stage()
    var peers: [Peer] = [Peer("a"), Peer("b")]
    for peer in peers + peers {
      Associations(of: host)[Links.self].insert(WeakReference<any Node & Sendable>(peer))
    }
    #expect(Associations(of: host)[Links.self].count == 2)
    peers.removeLast()
    let links = Associations(of: host)[Links.self]
    #expect(links.compactMap(\.object).map(\.name) == ["a"])
    #expect(links.count == 2, "a dead link stays in the set, under the same hash")
    #expect(links.contains(WeakReference<any Node & Sendable>(peers[0])))
  }
}
