import Affix
import AffixTesting
import Testing

private final class Document: Sendable {}

private final class OwningDocument: AssociationOwner {
  let associationStorage = AssociationStorage()
}

/// Points back at the host it is attached to.
private final class Inspector {
  let document: AnyObject

  init(document: AnyObject) {
    self.document = document
  }
}

private final class WeakInspector {
  weak var document: AnyObject?

  init(document: AnyObject) {
    self.document = document
  }
}

private struct InspectorState {
  var count = 0
  let owner: AnyObject
}

private final class Pinned: Capability {
  let host: Document

  init(host: Document) {
    self.host = host
  }

  func didDetach() {}
}

private enum Declared: AssociatedValueKey {
  typealias Value = Inspector
}

private let inspectorKey = AssociatedKey<Inspector>("inspector")
private let weakInspectorKey = AssociatedKey<Inspector>.weak("weakInspector")
private let politeInspectorKey = AssociatedKey<WeakInspector>("politeInspector")
private let stateKey = AssociatedKey<InspectorState>("state")
private let inspectorsKey = AssociatedKey<[Inspector]>("inspectors")
private let countKey = AssociatedKey<Int>("count")
private let selectionKey = AssociatedKey<String>("selection")

/// Breaks whatever cycle a test made, so that the suite leaves nothing behind for
/// LeakSanitizer.
private func release(_ document: AnyObject) {
  let associations = Associations(of: document)
  associations.removeValue(for: inspectorKey)
  associations.removeValue(for: stateKey)
  associations.removeValue(for: inspectorsKey)
  associations.removeValue(for: Declared.self)
  associations.detach(Pinned.self)
}

@Suite struct RetainCycleFinderAssociationsTests {
  @Test func aValueThatPointsBackAtItsHostIsACycleThroughTheAssociation() {
    let document = Document()
    Associations(of: document)[inspectorKey] = Inspector(document: document)
    defer { release(document) }

    let cycle = RetainCycleFinder.cycle(through: document)
    #expect(cycle?.description == "Document -[inspector]-> Inspector.document -> Document")
    #expect(cycle?.steps.first?.association == "inspector")
    #expect(cycle?.steps.last?.association == nil)
  }

  @Test func anOwnersOwnStorageIsFollowedToo() {
    let document = OwningDocument()
    Associations(of: document)[inspectorKey] = Inspector(document: document)
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "OwningDocument -[inspector]-> Inspector.document -> OwningDocument")
  }

  @Test func aWeakKeyIsNoEdge() {
    let document = Document()
    let inspector = Inspector(document: document)
    Associations(of: document)[weakInspectorKey] = inspector

    #expect(RetainCycleFinder.cycle(through: document) == nil)
    #expect(RetainCycleFinder.path(from: document, to: inspector) == nil)
  }

  @Test func aValueThatHoldsItsHostWeaklyMakesNoCycle() {
    let document = Document()
    Associations(of: document)[politeInspectorKey] = WeakInspector(document: document)

    #expect(RetainCycleFinder.cycle(through: document) == nil)
  }

  @Test func aReferenceInsideAStructValueShowsItsPathInTheValue() {
    let document = Document()
    Associations(of: document)[stateKey] = InspectorState(owner: document)
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[state].owner-> Document")
  }

  @Test func anElementOfAnArrayValueShowsItsIndex() {
    let document = Document()
    Associations(of: document)[inspectorsKey] = [
      Inspector(document: Document()), Inspector(document: document),
    ]
    defer { release(document) }

    #expect(
      RetainCycleFinder.cycle(through: document)?.description
        == "Document -[inspectors][1]-> Inspector.document -> Document")
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

  @Test func aPathFromAnotherObjectGoesThroughItsAssociations() {
    let document = Document()
    let target = Document()
    Associations(of: document)[inspectorKey] = Inspector(document: target)
    defer { release(document) }

    #expect(
      RetainCycleFinder.path(from: document, to: target)?.description
        == "Document -[inspector]-> Inspector.document -> Document")
  }

  @Test func inlineValuesHoldNothing() {
    let document = Document()
    Associations(of: document)[countKey] = 3

    #expect(RetainCycleFinder.cycle(through: document) == nil)
    #expect(RetainCycleFinder.closureProperties(of: document).isEmpty)
  }

  @Test func anObserverOfAKeyIsListedAsAClosure() {
    let document = Document()
    let token = Associations(of: document).observe(selectionKey) { _ in }
    defer { token.cancel() }

    #expect(RetainCycleFinder.closureProperties(of: document) == ["-[selection observer]"])
  }
}

@Suite struct LeakReportAssociationsTests {
  @Test func aSurvivorKeptByItsAssociatedValueReportsTheCycleThroughIt() {
    weak var leaked: Document?
    let (_, report) = checkForLeaks { tracker in
      let document = Document()
      Associations(of: document)[inspectorKey] = Inspector(document: document)
      tracker.track(document, "draft")
      leaked = document
    }
    if let leaked { release(leaked) }

    let line = report.survivors.first?.description ?? ""
    #expect(line.hasPrefix(#"LEAK: Document "draft" tracked at "#))
    #expect(line.hasSuffix("retain cycle: Document -[inspector]-> Inspector.document -> Document"))
  }

  @Test func aSurvivorWithAnObserverPointsAtItsClosure() {
    let document = Document()
    let token = Associations(of: document).observe(selectionKey) { _ in }
    defer { token.cancel() }
    let tracker = LeakTracker()
    tracker.track(document)

    // The optimizer would otherwise release `document` before the report.
    let line = withExtendedLifetime(document) { tracker.report().survivors.first?.description }
    #expect(line?.hasSuffix("check the closures in Document -[selection observer]") == true)
  }
}
