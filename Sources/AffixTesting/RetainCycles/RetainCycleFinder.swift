/// Finds strong-reference paths between objects by walking their stored properties with
/// `Mirror`.
///
/// The finder follows stored properties of classes and structs, optionals, enum payloads,
/// tuples and the elements of collections and dictionaries. It also follows what is attached
/// to an object through `Associations`: the values of strong keys and the capabilities, shown
/// as `Host -[key]-> ...` (a capability's key is its type name). It skips `weak` and `unowned`
/// properties and the values of weak keys, because they keep nothing alive. The state inside
/// the lock that Affix's own capabilities keep their state in is followed (read under that
/// lock, and shown as `Capability.locked.state.property`); whatever sits inside a `Mutex` or
/// an `Atomic` is not visible to it. Nor is what closures capture: a
/// cycle through a closure (`self.onChange = { self.refresh() }`, or an observer of a key that
/// captures the host) has no path here, and the finder reports which properties and
/// associations of the object hold closures instead.
///
/// ```swift
/// let parent = Parent()
/// parent.child = Child(parent: parent)  // Child.parent is a strong `let`
/// RetainCycleFinder.cycle(through: parent)?.description
/// // "Parent.child -> Child.parent -> Parent"
///
/// let document = Document()
/// Associations(of: document)[InspectorKey.self] = Inspector(document: document)
/// RetainCycleFinder.cycle(through: document)?.description
/// // "Document -[InspectorKey]-> Inspector.document -> Document"
/// ```
///
/// - Complexity: O(*n*) in the number of references reachable from the start object, bounded
///   by `objectLimit` objects.
public enum RetainCycleFinder {
  /// The default bound on the number of objects one search visits.
  public static let defaultObjectLimit = 10_000

  /// The shortest path of strong references that leads from `object` back to itself, or `nil`
  /// if its stored properties lead to no such cycle.
  public static func cycle(
    through object: AnyObject, objectLimit: Int = defaultObjectLimit
  ) -> RetainPath? {
    path(from: object, to: object, objectLimit: objectLimit)
  }

  /// The shortest path of strong references from `source` to `target` (at least one step), or
  /// `nil` if none exists through stored properties.
  public static func path(
    from source: AnyObject, to target: AnyObject, objectLimit: Int = defaultObjectLimit
  ) -> RetainPath? {
    let targetID = ObjectIdentifier(target)
    var search = Search(objectLimit: objectLimit)
    // Breadth first, so the first path found is a shortest one. The visited objects stay
    // retained in `search` until it ends, which keeps their identifiers unique meanwhile.
    var frontier = [search.visit(source, from: nil)]
    while !frontier.isEmpty {
      var next: [Int] = []
      for index in frontier {
        for edge in ReferenceWalker.strongReferences(of: search.objects[index]) {
          if ObjectIdentifier(edge.object) == targetID {
            return search.path(to: index, last: edge, target: target)
          }
          guard !search.isVisited(edge.object), !search.isFull else { continue }
          next.append(search.visit(edge.object, from: (index, edge)))
        }
      }
      frontier = next
    }
    return nil
  }

  /// The paths, inside `object`, of stored properties that hold closures, then of its
  /// associations that do.
  ///
  /// Associations are written `-[key]` (`-[selection observer]` for an observer of the key
  /// `selection`). These are the places where a cycle may hide that no path shows.
  ///
  /// - Parameter object: The object to look inside.
  /// - Returns: The paths, stored properties first.
  public static func closureProperties(of object: AnyObject) -> [String] {
    ReferenceWalker.closureProperties(of: object)
  }

  /// The closures held by `object` and by every object it reaches through strong references:
  /// where a cycle through a closure must pass. Observers of keys come first (the usual
  /// culprit: an `observe` closure that captures the object), then the other closures, each
  /// nearest first.
  ///
  /// Each is written as the path to its holder, then the closure's place in it:
  /// `Node.state -> State -[Width observer]`, `Node.onLayout`.
  ///
  /// ```swift
  /// node.state = state
  /// _ = Associations(of: state).observe(Width.self) { node.width = $0 }  // captures node
  /// RetainCycleFinder.reachableClosures(from: node).first
  /// // "Node.state -> State -[Width observer]"
  /// ```
  ///
  /// - Parameters:
  ///   - object: Where the search starts.
  ///   - objectLimit: The most objects the search visits.
  /// - Returns: The closures' places, observers first.
  public static func reachableClosures(
    from object: AnyObject, objectLimit: Int = defaultObjectLimit
  ) -> [String] {
    var search = Search(objectLimit: objectLimit)
    var frontier = [search.visit(object, from: nil)]
    var observers: [String] = []
    var others: [String] = []
    while !frontier.isEmpty {
      var next: [Int] = []
      for index in frontier {
        let holder = search.objects[index]
        let route = search.route(to: index)
        for closure in ReferenceWalker.closureProperties(of: holder) {
          let isAssociation = closure.hasPrefix("-[")
          let place = isAssociation ? "\(route) \(closure)" : "\(route).\(closure)"
          if isAssociation && closure.contains(" observer]") {
            observers.append(place)
          } else {
            others.append(place)
          }
        }
        for edge in ReferenceWalker.strongReferences(of: holder) {
          guard !search.isVisited(edge.object), !search.isFull else { continue }
          next.append(search.visit(edge.object, from: (index, edge)))
        }
      }
      frontier = next
    }
    return observers + others
  }
}

private struct Search {
  let objectLimit: Int
  private(set) var objects: [AnyObject] = []
  private var parents: [(index: Int, edge: Reference)?] = []
  private var visited: Set<ObjectIdentifier> = []

  init(objectLimit: Int) {
    self.objectLimit = objectLimit
  }

  var isFull: Bool { objects.count >= objectLimit }

  func isVisited(_ object: AnyObject) -> Bool {
    visited.contains(ObjectIdentifier(object))
  }

  mutating func visit(_ object: AnyObject, from parent: (index: Int, edge: Reference)?) -> Int {
    visited.insert(ObjectIdentifier(object))
    objects.append(object)
    parents.append(parent)
    return objects.count - 1
  }

  /// How the search reached the object at `index` from where it started: the start's type
  /// name, or the path, `Node.state -> State`.
  func route(to index: Int) -> String {
    guard let parent = parents[index] else { return typeName(of: objects[index]) }
    return path(to: parent.index, last: parent.edge, target: objects[index]).description
  }

  func path(to index: Int, last edge: Reference, target: AnyObject) -> RetainPath {
    var steps = [edge.step(from: objects[index])]
    var current = index
    while let parent = parents[current] {
      steps.append(parent.edge.step(from: objects[parent.index]))
      current = parent.index
    }
    return RetainPath(steps: steps.reversed(), targetTypeName: typeName(of: target))
  }
}

/// The type name reports use: short, without the module, with generic arguments.
func typeName(of object: Any) -> String {
  String(describing: type(of: object))
}
