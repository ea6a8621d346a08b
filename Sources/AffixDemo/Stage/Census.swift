import Affix

/// Counts the objects of each kind that are still alive, without keeping any of them alive:
/// the live counts the demo shows (LifetimeTracker's idea, on weak references).
final class Census: Sendable {
  private struct Entry {
    let kind: String
    let reference: AnyWeakReference
  }

  private let entries = LockedState<[Entry]>([])

  /// Counts `object` under `kind` for as long as it lives.
  func track(_ object: AnyObject, as kind: String) {
    // Never compared: on the weak path, it leaves no serial in the object's storage, which
    // the table's figures the scenes show would count.
    let entry = Entry(kind: kind, reference: AnyWeakReference(unidentified: object))
    entries.withLock { $0.append(entry) }
  }

  /// How many objects tracked under `kind` are alive now.
  func alive(_ kind: String) -> Int {
    let references = entries.withLock { $0.filter { $0.kind == kind }.map(\.reference) }
    return references.count { $0.object != nil }
  }

  /// `alive: 1000 Sprite, 0 Badge`, for the kinds given, in that order.
  func summary(_ kinds: [String]) -> String {
    "alive: " + kinds.map { "\(alive($0)) \($0)" }.joined(separator: ", ")
  }
}
