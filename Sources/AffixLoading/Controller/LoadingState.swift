public import AffixScheduling

/// Where a loading indicator is in its life.
///
/// ```
/// idle --start--> pending --grace time--> visible --stop--> finishing --minimum show--> idle
///                    |                       ^                  |
///                    +------stop-----> idle  +------start-------+
/// ```
public enum LoadingState: Sendable, Hashable, CustomStringConvertible {
  /// Nothing is loading and nothing is shown.
  case idle

  /// Work has started; the indicator appears at `appearsAt` unless the work ends first.
  case pending(appearsAt: SchedulingInstant)

  /// The indicator has been shown since `since`.
  case visible(since: SchedulingInstant)

  /// The work has ended; the indicator, shown since `since`, stays until `until` so that it
  /// never flickers, then disappears.
  case finishing(since: SchedulingInstant, until: SchedulingInstant)

  /// Whether work is in progress or the indicator is still on screen.
  public var isActive: Bool {
    self != .idle
  }

  /// Whether the indicator is on screen.
  public var isVisible: Bool {
    switch self {
    case .visible, .finishing: true
    case .idle, .pending: false
    }
  }

  /// A short description, such as `visible since t+0.3 seconds`.
  public var description: String {
    switch self {
    case .idle: "idle"
    case .pending(let appearsAt): "pending, appears at \(appearsAt)"
    case .visible(let since): "visible since \(since)"
    case .finishing(let since, let until): "finishing, visible since \(since) until \(until)"
    }
  }
}
