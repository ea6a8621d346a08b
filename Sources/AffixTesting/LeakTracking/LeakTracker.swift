import Synchronization
public import Testing

/// Tracks objects that should be released by the end of a scope, and reports the ones that
/// are not.
///
/// Usually you get a tracker from ``expectNoLeaks(sourceLocation:_:)`` (Swift Testing) or
/// ``checkForLeaks(_:)`` (XCTest or anywhere else). A tracker holds its objects weakly, so
/// tracking never changes what it observes.
///
/// ```swift
/// let tracker = LeakTracker()
/// do {
///   let view = View()
///   tracker.track(view, "the host")
/// }
/// let report = tracker.report()
/// XCTAssertTrue(report.isClean, "\(report)")
/// ```
public final class LeakTracker: Sendable {
  private struct Entry: Sendable {
    let reference: WeakBox
    let typeName: String
    let label: String?
    let sourceLocation: SourceLocation
  }

  private let entries = Mutex<[Entry]>([])

  /// Creates a tracker with nothing tracked.
  public init() {}

  /// Tracks `object`: ``report()`` will list it if it is still alive then.
  ///
  /// - Parameters:
  ///   - object: Any class instance. It is held weakly.
  ///   - label: A name for the object in the report, for when its type alone is ambiguous.
  ///   - sourceLocation: Where the object was tracked; the report points there.
  public func track(
    _ object: AnyObject, _ label: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let entry = Entry(
      reference: WeakBox(object), typeName: typeName(of: object), label: label,
      sourceLocation: sourceLocation)
    entries.withLock { $0.append(entry) }
  }

  /// How many objects have been tracked so far.
  public var trackedCount: Int {
    entries.withLock { $0.count }
  }

  /// Checks every tracked object now and describes the ones still alive, with a retain path
  /// for each where its stored properties show one.
  public func report() -> LeakReport {
    let snapshot = entries.withLock { $0 }
    var seen: Set<ObjectIdentifier> = []
    var alive: [(entry: Entry, object: AnyObject)] = []
    for entry in snapshot {
      guard let object = entry.reference.object else { continue }
      if seen.insert(ObjectIdentifier(object)).inserted {
        alive.append((entry, object))
      }
    }
    let survivors = alive.map { survivor in
      let cycle = RetainCycleFinder.cycle(through: survivor.object)
      let retainedBy =
        cycle == nil
        ? alive.lazy.filter { $0.object !== survivor.object }
          .compactMap { RetainCycleFinder.path(from: $0.object, to: survivor.object) }.first
        : nil
      return LeakReport.Survivor(
        typeName: survivor.entry.typeName, label: survivor.entry.label,
        sourceLocation: survivor.entry.sourceLocation, cycle: cycle, retainedBy: retainedBy,
        closureProperties: RetainCycleFinder.closureProperties(of: survivor.object))
    }
    return LeakReport(trackedCount: snapshot.count, survivors: survivors)
  }
}
