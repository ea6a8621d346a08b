/// A point on a scheduler's clock, as the time elapsed since the clock's epoch.
///
/// It is the `Instant` of every ``SchedulingClock`` as a `Clock`.
///
/// Instants from different schedulers are not comparable in any meaningful way: each scheduler
/// has its own epoch (the moment a ``DispatchClock`` was created, or an arbitrary start for
/// a ``VirtualClock``).
///
/// Arithmetic on instants saturates: an instant plus a `Duration` near the top of its range is
/// the latest instant there is, never an overflow trap, so a deadline of
/// `.seconds(Int64.max)` simply never comes.
///
/// ```swift
/// let start = SchedulingInstant.zero
/// let later = start + .milliseconds(250)
/// later - start  // 0.25 seconds
/// ```
public struct SchedulingInstant: InstantProtocol, CustomStringConvertible {
  /// The time elapsed since the clock's epoch.
  public var sinceEpoch: Duration

  /// Creates the instant that lies `sinceEpoch` after the clock's epoch.
  public init(sinceEpoch: Duration) {
    self.sinceEpoch = sinceEpoch
  }

  /// The clock's epoch.
  public static let zero = SchedulingInstant(sinceEpoch: .zero)

  /// The instant `duration` after this one (before it, if `duration` is negative).
  ///
  /// It is held at the first or last instant a `Duration` can express rather than trapping on
  /// overflow.
  ///
  /// - Parameter duration: How far from this instant; negative for an earlier one.
  /// - Returns: The instant `duration` away, held within the instants a `Duration` can express.
  public func advanced(by duration: Duration) -> SchedulingInstant {
    SchedulingInstant(sinceEpoch: sinceEpoch.saturatingAdding(duration))
  }

  /// The time from this instant to `other`: negative if `other` comes first; held at the
  /// bounds of `Duration` rather than trapping on overflow.
  public func duration(to other: SchedulingInstant) -> Duration {
    other.sinceEpoch.saturatingSubtracting(sinceEpoch)
  }

  /// The instant `rhs` after `lhs`.
  public static func + (lhs: SchedulingInstant, rhs: Duration) -> SchedulingInstant {
    lhs.advanced(by: rhs)
  }

  /// The time from `rhs` to `lhs`.
  public static func - (lhs: SchedulingInstant, rhs: SchedulingInstant) -> Duration {
    rhs.duration(to: lhs)
  }

  /// Orders instants by the time elapsed since the epoch.
  public static func < (lhs: SchedulingInstant, rhs: SchedulingInstant) -> Bool {
    lhs.sinceEpoch < rhs.sinceEpoch
  }

  /// The elapsed time, for example `t+0.25 seconds`.
  public var description: String {
    "t+\(sinceEpoch)"
  }
}
