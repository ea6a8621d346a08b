import Affix
import Synchronization

/// Counts the objects of each kind that are still alive, without keeping any of them alive:
/// the live counts the demo shows (LifetimeTracker's idea, on weak references).
final class Census: Sendable {
  private struct Entry {
    let kind: String
    let reference: AnyWeakReference
  }

  private let entries = Mutex<[Entry]>([])

  /// Counts `object` under `kind` for as long as it lives.
  func track(_ object: AnyObject, as kind: String) {
    let entry = Entry(kind: kind, reference: AnyWeakReference(object))
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
