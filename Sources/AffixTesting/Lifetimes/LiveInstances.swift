import Affix

/// Counts of live instances per type, with optional maximum counts: LifetimeTracker's idea,
/// without the Objective-C runtime.
///
/// An object is counted while it holds a ``LifetimeToken`` (a stored property created with its
/// type), or after ``trackLifetime(of:maximum:)`` attached one to it. When a type goes over its
/// maximum, a diagnostic is reported through `Diagnostics` with the subsystem
/// `"lifetime"`.
///
/// ```swift
/// final class DetailScreen {
///   let lifetime = LifetimeToken(for: DetailScreen.self, maximum: 1)
/// }
///
/// LiveInstances.count(of: DetailScreen.self)  // 0, then 1 while a screen lives
/// ```
///
/// Counts are process-wide. Tests that run in parallel should count types of their own.
///
/// The objects counted through ``trackLifetime(of:maximum:)`` are also remembered, weakly, so
/// that ``instances(of:)`` and the diagnostic for a type over its maximum can show the retain
/// cycle that keeps one alive, through stored properties and associated values alike:
///
/// ```
/// Window has 2 live instances, more than 1; retain cycle: Window -[InspectorKey]-> Inspector.window -> Window
/// ```
public enum LiveInstances {
  /// The count of one type.
  public struct Count: Sendable, Hashable, CustomStringConvertible {
    /// The type's name, without its module.
    public let typeName: String
    /// Instances alive now.
    public let live: Int
    /// The most instances that were alive at once.
    public let peak: Int
    /// The most instances that should be alive at once, if set.
    public let maximum: Int?

    /// Whether more instances are alive than the maximum allows.
    public var isOverMaximum: Bool {
      maximum.map { live > $0 } ?? false
    }

    /// `DetailScreen: 2 live (peak 3, maximum 1)`.
    public var description: String {
      "\(typeName): \(live) live (peak \(peak)\(maximum.map { ", maximum \($0)" } ?? ""))"
    }
  }

  /// A live instance counted through ``trackLifetime(of:maximum:)``, and what keeps it alive.
  public struct Instance: Sendable, CustomStringConvertible {
    /// The instance's type name, without its module.
    public let typeName: String
    /// A path of stored properties and associations from the instance back to itself, if one
    /// exists.
    public let cycle: RetainPath?

    /// `Window: retain cycle: Window -[InspectorKey]-> Inspector.window -> Window`.
    public var description: String {
      guard let cycle else {
        return "\(typeName): no retain cycle through stored properties or associations"
      }
      return "\(typeName): retain cycle: \(cycle)"
    }
  }

  private struct Record {
    var typeName: String
    var live = 0
    var peak = 0
    var maximum: Int?
    /// The instances counted through `trackLifetime(of:maximum:)`; dead ones are dropped as
    /// new ones come.
    var instances: [AnyWeakReference] = []

    var count: Count {
      Count(typeName: typeName, live: live, peak: peak, maximum: maximum)
    }
  }

  private static let records = LockedState<[ObjectIdentifier: Record]>([:])

  /// How many instances of `type` are alive now.
  public static func count(of type: any Any.Type) -> Int {
    records.withLock { $0[ObjectIdentifier(type)]?.live ?? 0 }
  }

  /// The counts of every type counted so far, sorted by type name.
  public static var counts: [Count] {
    records.withLock { $0.values.map(\.count) }.sorted { $0.typeName < $1.typeName }
  }

  /// The counts of the types with more live instances than their maximum.
  public static var overMaximum: [Count] {
    counts.filter(\.isOverMaximum)
  }

  /// The live instances of `type` that ``trackLifetime(of:maximum:)`` counted.
  ///
  /// Each comes with the retain cycle through it when its stored properties or associations
  /// show one. Instances counted by a ``LifetimeToken`` of their own are counted, not known:
  /// they are not listed.
  ///
  /// - Parameter type: The type whose instances to list.
  /// - Returns: The live instances, each with its retain cycle when one shows.
  public static func instances(of type: any Any.Type) -> [Instance] {
    let references = records.withLock { $0[ObjectIdentifier(type)]?.instances ?? [] }
    return describe(references)
  }

  /// Finds the cycles outside the lock: walking objects may release the last reference to
  /// one, whose token's deinit takes the lock again.
  private static func describe(_ references: [AnyWeakReference]) -> [Instance] {
    references.compactMap(\.object).map { object in
      Instance(
        typeName: typeName(of: object), cycle: RetainCycleFinder.cycle(through: object))
    }
  }

  /// Sets (or, with `nil`, removes) the most instances of `type` that should be alive at once.
  ///
  /// A negative maximum is reported as a diagnostic and ignored.
  public static func setMaximum(_ maximum: Int?, for type: any Any.Type) {
    if let maximum, maximum < 0 {
      Diagnostics.report(
        subsystem: "lifetime", message: "ignored a negative maximum (\(maximum)) for \(type)")
      return
    }
    let count = records.withLock { records in
      records[ObjectIdentifier(type), default: Record(typeName: "\(type)")].maximum = maximum
      return records[ObjectIdentifier(type)]?.count
    }
    if let count, count.isOverMaximum {
      reportOverMaximum(count, cycles: instances(of: type).compactMap(\.cycle))
    }
  }

  static func increment(_ type: any Any.Type, maximum: Int?, instance: AnyObject? = nil) {
    let (count, instances) = records.withLock { records in
      var record = records[ObjectIdentifier(type), default: Record(typeName: "\(type)")]
      record.live += 1
      record.peak = max(record.peak, record.live)
      if let maximum, maximum >= 0 {
        record.maximum = maximum
      }
      if let instance {
        record.instances.removeAll { $0.object == nil }
        // Never compared: on the weak path, it leaves no serial in the instance's storage.
        record.instances.append(AnyWeakReference(unidentified: instance))
      }
      records[ObjectIdentifier(type)] = record
      return (record.count, record.instances)
    }
    if let maximum, maximum < 0 {
      Diagnostics.report(
        subsystem: "lifetime", message: "ignored a negative maximum (\(maximum)) for \(type)")
    }
    if count.isOverMaximum {
      reportOverMaximum(count, cycles: describe(instances).compactMap(\.cycle))
    }
  }

  static func decrement(_ type: any Any.Type) {
    records.withLock { records in
      records[ObjectIdentifier(type)]?.live -= 1
    }
  }

  /// Reports a type over its maximum, with the distinct retain cycles that keep its known
  /// instances alive.
  private static func reportOverMaximum(_ count: Count, cycles: [RetainPath]) {
    var message =
      "\(count.typeName) has \(count.live) live instances, more than \(count.maximum ?? 0)"
    var seen: Set<RetainPath> = []
    for cycle in cycles where seen.insert(cycle).inserted {
      message += "; retain cycle: \(cycle)"
    }
    Diagnostics.report(subsystem: "lifetime", message: message)
  }
}
