import Affix

/// A strong reference found inside an object: where it is held and its target.
struct Reference {
  /// The key of the association that holds it, or nil for a stored property.
  let association: String?
  /// The path of stored properties: from the object, or inside the associated value.
  let property: String
  let object: AnyObject

  /// The step of a retain path that follows this reference out of `holder`.
  func step(from holder: AnyObject) -> RetainPath.Step {
    RetainPath.Step(typeName: typeName(of: holder), property: property, association: association)
  }
}

/// Walks the stored properties of one object with `Mirror`, down through value types, then
/// what is attached to it through `Associations`, and collects the objects it holds strongly
/// and the places that hold closures.
enum ReferenceWalker {
  /// Bounds the walk through nested value types; cycles cannot pass through values alone, so
  /// this only guards against very deep trees.
  private static let maximumValueDepth = 32
  /// Bounds how many elements of one collection are looked at.
  private static let maximumElements = 10_000

  private enum Found {
    case object(AnyObject)
    case closure
  }

  /// The objects `object` holds strongly: through its stored properties, then through its
  /// associations (values of strong keys and capabilities; weak keys hold nothing). An
  /// associated value that points back at its host is the cycle this library can create and
  /// the one no stored property shows.
  static func strongReferences(of object: AnyObject) -> [Reference] {
    var references: [Reference] = []
    walkFields(of: object) { path, found in
      if case .object(let target) = found {
        references.append(Reference(association: nil, property: path, object: target))
      }
    }
    walkAssociations(of: object) { key, path, found in
      if case .object(let target) = found {
        references.append(Reference(association: key, property: path, object: target))
      }
    }
    return references
  }

  /// The stored properties of `object` that hold closures, as paths (`onChange`), then its
  /// associations that do, written `-[key]` (an observer of a key shows as
  /// `-[key observer]`).
  static func closureProperties(of object: AnyObject) -> [String] {
    var paths: [String] = []
    walkFields(of: object) { path, found in
      if case .closure = found {
        paths.append(path)
      }
    }
    walkAssociations(of: object) { key, path, found in
      if case .closure = found {
        paths.append("-[\(key)]\(path)")
      }
    }
    return paths
  }

  private static func walkAssociations(
    of object: AnyObject, _ visit: (_ key: String, _ path: String, Found) -> Void
  ) {
    // An owner's storage is one of its stored properties, but its fields are atomics that
    // `Mirror` cannot read: its contents come from here.
    for association in Associations(of: object).reflectedAssociations {
      guard let value = association.value else { continue }
      let key = association.kind == .observer ? "\(association.name) observer" : association.name
      walk(value, at: "", depth: 0) { path, found in
        visit(key, path.isEmpty || path.hasPrefix("[") ? path : ".\(path)", found)
      }
    }
  }

  private static func walkFields(of object: AnyObject, _ visit: (String, Found) -> Void) {
    var level: Mirror? = Mirror(reflecting: object)
    let filtersByOwnership = !(object is any CustomReflectable)
    while let mirror = level {
      walkChildren(of: mirror, at: "", depth: 0, filtersByOwnership: filtersByOwnership, visit)
      level = mirror.superclassMirror
    }
  }

  private static func walkChildren(
    of mirror: Mirror, at path: String, depth: Int, filtersByOwnership: Bool,
    _ visit: (String, Found) -> Void
  ) {
    let skipped =
      filtersByOwnership ? FieldOwnership.nonStrongFieldNames(of: mirror.subjectType) : []
    for (index, child) in mirror.children.enumerated() {
      let label = child.label ?? "\(index)"
      guard !skipped.contains(label) else { continue }
      walk(child.value, at: join(path, fieldName(label)), depth: depth + 1, visit)
    }
  }

  private static func walk(
    _ value: Any, at path: String, depth: Int, _ visit: (String, Found) -> Void
  ) {
    // Both of the library's locks are seen through, as if their owner held the state itself:
    // the public `LockedState`, where every capability (built-in or a third party's) keeps its
    // state, and the core's `Locked`. Other locks (`Mutex`, `NSLock`) are walked as `Mirror`
    // shows them, which is not into their state.
    if let locked = value as? any LockedStateReflecting, depth < maximumValueDepth {
      walk(locked.reflectedState, at: join(path, "state"), depth: depth + 1, visit)
      return
    }
    if type(of: value) is AnyClass {
      visit(path, .object(value as AnyObject))
      return
    }
    guard depth < maximumValueDepth, !_openExistential(value, do: holdsNoReferences) else {
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional?:
      if let wrapped = mirror.children.first {
        walk(wrapped.value, at: path, depth: depth + 1, visit)
      }
    case .struct?:
      walkChildren(
        of: mirror, at: path, depth: depth, filtersByOwnership: !(value is any CustomReflectable),
        visit)
    case .enum?, .tuple?:
      for (index, child) in mirror.children.enumerated() {
        walk(child.value, at: join(path, child.label ?? "\(index)"), depth: depth + 1, visit)
      }
    case .collection?, .set?:
      for (index, element) in mirror.children.prefix(maximumElements).enumerated() {
        walk(element.value, at: "\(path)[\(index)]", depth: depth + 1, visit)
      }
    case .dictionary?:
      for (index, entry) in mirror.children.prefix(maximumElements).enumerated() {
        let pair = Array(Mirror(reflecting: entry.value).children)
        guard pair.count == 2 else { continue }
        walk(pair[1].value, at: "\(path)[\(key(pair[0].value))]", depth: depth + 1, visit)
        walk(pair[0].value, at: "\(path).keys[\(index)]", depth: depth + 1, visit)
      }
    case nil:
      // A function type has no display style and no children: its captures are opaque.
      if String(describing: type(of: value)).contains(" -> ") {
        visit(path, .closure)
      }
    default:
      // Classes were handled above; foreign references are opaque.
      break
    }
  }

  private static func join(_ path: String, _ component: String) -> String {
    if path.isEmpty { return component }
    return component.hasPrefix(".") ? path + component : "\(path).\(component)"
  }

  /// Lazy properties are stored under a mangled name; reports use the declared one.
  private static func fieldName(_ label: String) -> String {
    let lazyPrefix = "$__lazy_storage_$_"
    return label.hasPrefix(lazyPrefix) ? String(label.dropFirst(lazyPrefix.count)) : label
  }

  private static func key(_ key: Any) -> String {
    let text = String(reflecting: key)
    return text.count <= 40 ? text : String(text.prefix(37)) + "..."
  }
}

/// Plain data (integers, floats, structs of them) holds no references: no need to walk it.
private func holdsNoReferences<T>(_ value: T) -> Bool {
  _isPOD(T.self)
}
