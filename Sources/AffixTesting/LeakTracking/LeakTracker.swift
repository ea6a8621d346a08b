import Affix
public import Testing

/// Tracks objects that should be released by the end of a scope, and reports the ones that
/// are not.
///
/// Usually you get a tracker from ``expectNoLeaks(sourceLocation:_:)-9fjqw`` (Swift Testing) or
/// ``checkForLeaks(_:)`` (XCTest or anywhere else). A tracker holds its objects weakly, so
/// tracking never changes what it observes.
///
/// Values attached to a host through the shared `AssociationTable` are released at the
/// next sweep after the host dies, so ``report()`` sweeps the table before it looks: a value
/// tracked here and attached to a dead host counts as a leak only if something else keeps it.
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
    let reference: AnyWeakReference
    let typeName: String
    let label: String?
    let sourceLocation: SourceLocation
  }

  private let entries = LockedState<[Entry]>([])

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
      // Never compared: on the weak path, it leaves no serial in the object's storage.
      reference: AnyWeakReference(unidentified: object), typeName: typeName(of: object),
      label: label,
      sourceLocation: sourceLocation)
    entries.withLock { $0.append(entry) }
  }

  /// Tracks `host` and every capability attached to it now, labelled with the host's type.
  ///
  /// The report then shows whether the host took its mixins' state with it. Call it after the
  /// capabilities are attached; later ones are not tracked.
  ///
  /// - Parameters:
  ///   - host: The object to track with its capabilities. They are held weakly.
  ///   - label: A name for the host in the report, which its capabilities' labels repeat.
  ///   - sourceLocation: Where the objects were tracked; the report points there.
  public func trackAttachments<Host: AnyObject>(
    of host: Host, _ label: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    track(host, label, sourceLocation: sourceLocation)
    let owner = label.map { "\(typeName(of: host)) \"\($0)\"" } ?? typeName(of: host)
    for capability in Associations(of: host).capabilities {
      track(capability, "capability of \(owner)", sourceLocation: sourceLocation)
    }
  }

  /// How many objects have been tracked so far.
  public var trackedCount: Int {
    entries.withLock { $0.count }
  }

  /// Sweeps the shared association table, then checks every tracked object and describes the
  /// ones still alive.
  ///
  /// Each is described with a retain path where its stored properties or associations show
  /// one.
  ///
  /// The sweep releases the values of every dead host, not only of tracked ones; that is what
  /// the background sweeper would do anyway, so tests running in parallel are not disturbed.
  ///
  /// - Returns: The report on the tracked objects still alive.
  public func report() -> LeakReport {
    AssociationTable.sweep()
    let snapshot = entries.withLock { $0 }
    var seen: Set<ObjectIdentifier> = []
    var alive: [(entry: Entry, object: AnyObject)] = []
    var heldUnowned: [LeakReport.Survivor] = []
    for entry in snapshot {
      guard let object = entry.reference.object else {
        if let address = entry.reference.pinnedAddress, AssociationTable.isHeldInDeinit(at: address)
        {
          heldUnowned.append(
            LeakReport.Survivor(
              typeName: entry.typeName, label: entry.label, sourceLocation: entry.sourceLocation,
              cycle: nil, retainedBy: nil, closureProperties: [], reachableClosures: [],
              isHeldUnowned: true))
        }
        continue
      }
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
        closureProperties: RetainCycleFinder.closureProperties(of: survivor.object),
        reachableClosures: cycle == nil && retainedBy == nil
          ? RetainCycleFinder.reachableClosures(from: survivor.object) : [],
        isHeldUnowned: false)
    }
    return LeakReport(trackedCount: snapshot.count, survivors: survivors + heldUnowned)
  }
}
