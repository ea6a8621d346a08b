import Affix
import AffixTesting
import Testing

private final class Document: Sendable {}

private final class OwningDocument: AssociationOwner, Sendable {
  let associationStorage = AssociationStorage()
}

/// Points back at the host it is attached to.
private final class Inspector: Sendable {
  let document: any AnyObject & Sendable

  init(document: any AnyObject & Sendable) {
    self.document = document
  }
}

private final class WeakInspector: Sendable {
  weak let document: (any AnyObject & Sendable)?

  init(document: any AnyObject & Sendable) {
    self.document = document
  }
}

private struct InspectorState: Sendable {
  var count = 0
  let owner: any AnyObject & Sendable
}

private final class Pinned: Capability {
  let host: Document

  init(host: Document) {
    self.host = host
  }

  func didEnd(_ ending: CapabilityEnding) {}
}

/// A third party's capability: its state in the public lock, as the mixin guide shows.
private final class Locking: Capability {
  let state: LockedState<Document?>

  init(host: Document) {
    state = LockedState(host)
  }
}

private enum Declared: AssociatedKey {
  typealias Value = Inspector?
}

private enum InspectorKey: AssociatedKey { typealias Value = Inspector? }
private enum WeakInspectorKey: AssociatedKey {
  typealias Value = Inspector?
  static let policy = AssociationPolicy.weak
}
private enum PoliteInspectorKey: AssociatedKey { typealias Value = WeakInspector? }
private enum StateKey: AssociatedKey { typealias Value = InspectorState? }
private enum InspectorsKey: AssociatedKey { typealias Value = [Inspector]? }
/// Stored inline: an `Int?` would be boxed.
private enum CountKey: AssociatedKey { static let defaultValue = 0 }
private enum SelectionKey: AssociatedKey { typealias Value = String? }

/// Breaks whatever cycle a test made, so that the suite leaves nothing behind for
/// LeakSanitizer.
private func release(_ document: AnyObject) {
  let associations = Associations(of: document)
  associations.removeValue(for: InspectorKey.self)
  associations.removeValue(for: StateKey.self)
  associations.removeValue(for: InspectorsKey.self)
  associations.removeValue(for: Declared.self)
  associations.removeCapability(Pinned.self)
  associations.removeCapability(Locking.self)
}

@Suite struct RetainCycleFinderAssociationsTests {
  @Test func aValueThatPointsBackAtItsHostIsACycleThroughTheAssociation() {
    let document = Document()
    Associations(of: document)[InspectorKey.self] = Inspector(document: document)
    defer { release(document) }

    let cycle = RetainCycleFinder.cycle(through: document)
    #expect(cycle?.description == "Document -[InspectorKey]-> Inspector.document -> Document")
    #expect(cycle?.steps.first?.association == "InspectorKey")
    #expect(cycle?.steps.last?.association == nil)
  }

  @Test func anOwnersOwnStorageIsFollowedToo() {
    let document = OwningDocument()
    Associations(of: document)[InspectorKey.self] = Inspector(document: document)
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "OwningDocument -[InspectorKey]-> Inspector.document -> OwningDocument")
  }

  @Test func aWeakKeyIsNoEdge() {
    let document = Document()
    let inspector = Inspector(document: document)
    Associations(of: document)[WeakInspectorKey.self] = inspector

    #expect(RetainCycleFinder.cycle(through: document) == nil)
    #expect(RetainCycleFinder.path(from: document, to: inspector) == nil)
  }

  @Test func aValueThatHoldsItsHostWeaklyMakesNoCycle() {
    let document = Document()
    Associations(of: document)[PoliteInspectorKey.self] = WeakInspector(document: document)

    #expect(RetainCycleFinder.cycle(through: document) == nil)
  }

  @Test func aReferenceInsideAStructValueShowsItsPathInTheValue() {
    let document = Document()
    Associations(of: document)[StateKey.self] = InspectorState(owner: document)
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[StateKey].owner-> Document")
  }

  @Test func anElementOfAnArrayValueShowsItsIndex() {
    let document = Document()
    Associations(of: document)[InspectorsKey.self] = [
      Inspector(document: Document()), Inspector(document: document),
    ]
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[InspectorsKey][1]-> Inspector.document -> Document")
  }

  @Test func aKeyDeclaredAsATypeIsNamedByItsType() {
    let document = Document()
    Associations(of: document)[Declared.self] = Inspector(document: document)
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[Declared]-> Inspector.document -> Document")
  }

  @Test func aCapabilityIsAnEdgeNamedByItsType() {
    let document = Document()
    Associations(of: document).attach(Pinned(host: document))
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[Pinned]-> Pinned.host -> Document")
  }

  @Test func aCapabilitysLockedStateIsSeenThrough() {
    let document = Document()
    Associations(of: document).attach(Locking(host: document))
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[Locking]-> Locking.state.state -> Document")
  }

  @Test func aPathFromAnotherObjectGoesThroughItsAssociations() {
    let document = Document()
    let target = Document()
    Associations(of: document)[InspectorKey.self] = Inspector(document: target)
    defer { release(document) }

    #expect(
      RetainCycleFinder.path(from: document, to: target)?.description
        == "Document -[InspectorKey]-> Inspector.document -> Document")
  }

  @Test func inlineValuesHoldNothing() {
    let document = Document()
    Associations(of: document)[CountKey.self] = 3

    #expect(RetainCycleFinder.cycle(through: document) == nil)
    #expect(RetainCycleFinder.closureProperties(of: document).isEmpty)
  }

  @Test func anObserverOfAKeyIsListedAsAClosure() {
    let document = Document()
    let token = Associations(of: document).observe(SelectionKey.self, nonisolated: { _ in })
    defer { token.cancel() }

    #expect(RetainCycleFinder.closureProperties(of: document) == ["-[SelectionKey observer]"])
  }
}

@Suite struct LeakReportAssociationsTests {
  @Test func aSurvivorKeptByItsAssociatedValueReportsTheCycleThroughIt() {
    weak var leaked: Document?
    let (_, report) = checkForLeaks { tracker in
      let document = Document()
      Associations(of: document)[InspectorKey.self] = Inspector(document: document)
      tracker.track(document, "draft")
      leaked = document
    }
    if let leaked { release(leaked) }

    let line = report.survivors.first?.description ?? ""
    #expect(line.hasPrefix(#"LEAK: Document "draft" tracked at "#))
    #expect(
      line.hasSuffix("retain cycle: Document -[InspectorKey]-> Inspector.document -> Document"))
  }

  @Test func aSurvivorWithAnObserverPointsAtItsClosure() {
    let document = Document()
    let token = Associations(of: document).observe(SelectionKey.self, nonisolated: { _ in })
    defer { token.cancel() }
    let tracker = LeakTracker()
    tracker.track(document)

    // The optimizer would otherwise release `document` before the report.
    let line = withExtendedLifetime(document) { tracker.report().survivors.first?.description }
    #expect(
      line?.hasSuffix(
        "check the closures it reaches, observers first: Document -[SelectionKey observer]")
        == true)
  }

  /// A node kept alive by an observer registered on the state it holds, whose closure captures
  /// the node: the report names that observer first, before the node's own closure.
  @MainActor @Test func aSurvivorCapturedByAnObserverOfItsStateNamesThatObserverFirst() {
    final class State: Sendable {}
    final class Node {
      var state: State?
      var width = 0
      var onLayout: () -> Void = {}
    }
    let node = Node()
    let state = State()
    node.state = state
    let token = Associations(of: state).observe(SelectionKey.self) { _ in
      withExtendedLifetime(node) {}
    }
    defer { token.cancel() }
    let tracker = LeakTracker()
    tracker.track(node)

    let survivor = withExtendedLifetime(node) { tracker.report().survivors.first }
    #expect(survivor?.reachableClosures.first == "Node.state -> State -[SelectionKey observer]")
    #expect(survivor?.reachableClosures.last == "Node.onLayout")
    #expect(
      survivor?.description.contains(
        "observers first: Node.state -> State -[SelectionKey observer], Node.onLayout") == true)
  }
}
