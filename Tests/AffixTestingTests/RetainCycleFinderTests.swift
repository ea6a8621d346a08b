import AffixTesting
import Testing

private final class Node {
  var next: Node?
  weak var weakNext: Node?
  unowned(unsafe) var unsafeNext: Node?
  var children: [Node] = []
  var byName: [String: Node] = [:]
  var state = State.idle
  var settings = Settings()
  lazy var cached: Node? = nil

  enum State {
    case idle
    case loaded(Node)
  }

  struct Settings {
    var owner: Node?
    weak var weakOwner: Node?
  }
}

private class Base {
  var inherited: AnyObject?
}

private final class Derived: Base {
  var own = 0
}

private final class Callbacks {
  var onDone: () -> Void = {}
  var onFail: ((Int) -> Void)?
  var count = 0
}

@Suite struct RetainCycleFinderTests {
  /// Builds `first -> ... -> second -> first` with `link`, finds the cycle through `first`,
  /// then breaks it again so the test itself leaks nothing.
  private static func cycle(
    linking link: (Node, Node) -> Void, unlinking unlink: (Node) -> Void
  ) -> RetainPath? {
    let first = Node()
    let second = Node()
    second.next = first
    link(first, second)
    defer { unlink(first) }
    return RetainCycleFinder.cycle(through: first)
  }

  @Test func aCycleThroughAnOptionalPropertyIsNamed() {
    let cycle = Self.cycle(linking: { $0.next = $1 }, unlinking: { $0.next = nil })
    #expect(cycle?.description == "Node.next -> Node.next -> Node")
  }

  @Test func aCycleThroughAnArrayNamesTheElement() {
    let cycle = Self.cycle(
      linking: { $0.children = [Node(), $1] }, unlinking: { $0.children = [] })
    #expect(cycle?.propertyNames == ["Node.children[1]", "Node.next"])
  }

  @Test func aCycleThroughADictionaryNamesTheKey() {
    let cycle = Self.cycle(linking: { $0.byName = ["b": $1] }, unlinking: { $0.byName = [:] })
    #expect(cycle?.propertyNames.first == #"Node.byName["b"]"#)
  }

  @Test func aCycleThroughAnEnumPayloadNamesTheCase() {
    let cycle = Self.cycle(linking: { $0.state = .loaded($1) }, unlinking: { $0.state = .idle })
    #expect(cycle?.propertyNames.first == "Node.state.loaded")
  }

  @Test func aCycleThroughAStructPropertyNamesTheField() {
    let cycle = Self.cycle(
      linking: { $0.settings.owner = $1 }, unlinking: { $0.settings.owner = nil })
    #expect(cycle?.propertyNames.first == "Node.settings.owner")
  }

  @Test func aCycleThroughALazyPropertyUsesItsDeclaredName() {
    let cycle = Self.cycle(linking: { $0.cached = $1 }, unlinking: { $0.cached = nil })
    #expect(cycle?.propertyNames.first == "Node.cached")
  }

  @Test func weakAndUnownedReferencesMakeNoCycle() {
    let first = Node()
    let second = Node()
    first.weakNext = second
    second.weakNext = first
    first.settings.weakOwner = second
    second.settings.weakOwner = first
    first.unsafeNext = second
    second.unsafeNext = first
    #expect(RetainCycleFinder.cycle(through: first) == nil)
    first.unsafeNext = nil
    second.unsafeNext = nil
  }

  @Test func inheritedPropertiesAreFollowed() {
    let object = Derived()
    object.inherited = object
    #expect(RetainCycleFinder.cycle(through: object)?.description == "Derived.inherited -> Derived")
    object.inherited = nil
  }

  @Test func theShortestCycleIsReported() {
    let first = Node()
    let second = Node()
    let third = Node()
    first.children = [second, third]
    second.next = third
    third.next = first
    let cycle = RetainCycleFinder.cycle(through: first)
    #expect(cycle?.propertyNames == ["Node.children[1]", "Node.next"])
    third.next = nil
  }

  @Test func aPathBetweenTwoObjectsIsFoundOneWayOnly() {
    let first = Node()
    let second = Node()
    first.settings.owner = second
    let path = RetainCycleFinder.path(from: first, to: second)
    #expect(path?.description == "Node.settings.owner -> Node")
    #expect(RetainCycleFinder.path(from: second, to: first) == nil)
  }

  @Test func closurePropertiesThatHoldAClosureAreListed() {
    let callbacks = Callbacks()
    #expect(RetainCycleFinder.closureProperties(of: callbacks) == ["onDone"])
    callbacks.onFail = { _ in }
    #expect(RetainCycleFinder.closureProperties(of: callbacks) == ["onDone", "onFail"])
  }
}
