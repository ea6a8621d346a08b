import Affix
import Synchronization

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

  private struct Record {
    var typeName: String
    var live = 0
    var peak = 0
    var maximum: Int?

    var count: Count {
      Count(typeName: typeName, live: live, peak: peak, maximum: maximum)
    }
  }

  private static let records = Mutex<[ObjectIdentifier: Record]>([:])

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

  /// Sets (or, with `nil`, removes) the most instances of `type` that should be alive at once.
  ///
  /// A negative maximum is reported as a diagnostic and ignored.
  public static func setMaximum(_ maximum: Int?, for type: any Any.Type) {
    if let maximum, maximum < 0 {
      Diagnostics.report("lifetime", "ignored a negative maximum (\(maximum)) for \(type)")
      return
    }
    let count = records.withLock { records in
      records[ObjectIdentifier(type), default: Record(typeName: "\(type)")].maximum = maximum
      return records[ObjectIdentifier(type)]?.count
    }
    if let count, count.isOverMaximum {
      reportOverMaximum(count)
    }
  }

  static func increment(_ type: any Any.Type, maximum: Int?) {
    let count = records.withLock { records in
      var record = records[ObjectIdentifier(type), default: Record(typeName: "\(type)")]
      record.live += 1
      record.peak = max(record.peak, record.live)
      if let maximum, maximum >= 0 {
        record.maximum = maximum
      }
      records[ObjectIdentifier(type)] = record
      return record.count
    }
    if let maximum, maximum < 0 {
      Diagnostics.report("lifetime", "ignored a negative maximum (\(maximum)) for \(type)")
    }
    if count.isOverMaximum {
      reportOverMaximum(count)
    }
  }

  static func decrement(_ type: any Any.Type) {
    records.withLock { records in
      records[ObjectIdentifier(type)]?.live -= 1
    }
  }

  private static func reportOverMaximum(_ count: Count) {
    Diagnostics.report(
      "lifetime",
      "\(count.typeName) has \(count.live) live instances, more than \(count.maximum ?? 0)")
  }
}
