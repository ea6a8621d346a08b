import Affix
public import AffixLoading

/// An indicator that records what it was asked to show, for tests.
///
/// ```swift
/// let indicator = RecordingIndicator()
/// let controller = LoadingController(indicator: indicator, clock: clock)
/// controller.start(message: "Saving")
/// clock.advance(by: .seconds(1))
/// #expect(indicator.events.first == .appear(message: "Saving"))
/// ```
public final class RecordingIndicator: LoadingIndicator, Sendable {
  /// One call the indicator received.
  public enum Event: Sendable, Hashable {
    /// `LoadingIndicator.appear(message:)` was called.
    case appear(message: String?)
    /// `LoadingIndicator.tick(frame:angle:)` was called.
    case tick(frame: Int, angle: Double)
    /// `LoadingIndicator.update(message:)` was called.
    case update(message: String?)
    /// `LoadingIndicator.update(progress:)` was called.
    case progress(Double?)
    /// `LoadingIndicator.disappear(outcome:)` was called.
    case disappear(outcome: LoadingOutcome)
  }

  private let recorded = LockedState<[Event]>([])

  /// Whether the indicator asks for ticks, as given when it was created.
  public let wantsTicks: Bool

  /// Creates an indicator with no events.
  ///
  /// - Parameter wantsTicks: Whether it asks its controller for ticks; `true` by default, to
  ///   record them. Pass `false` to record an indicator that the platform animates.
  public init(wantsTicks: Bool = true) {
    self.wantsTicks = wantsTicks
  }

  /// Every call received, in order.
  public var events: [Event] {
    recorded.withLock { $0 }
  }

  /// The calls received other than ticks, in order: the indicator's visible story.
  public var transitions: [Event] {
    events.filter {
      if case .tick = $0 { return false }
      return true
    }
  }

  /// The number of ticks received.
  public var tickCount: Int {
    events.count(where: {
      if case .tick = $0 { return true }
      return false
    })
  }

  /// Whether the indicator is currently shown: it appeared more recently than it disappeared.
  public var isShown: Bool {
    for event in events.reversed() {
      switch event {
      case .appear: return true
      case .disappear: return false
      case .tick, .update, .progress: continue
      }
    }
    return false
  }

  /// Records an appearance.
  public func appear(message: String?) {
    recorded.withLock { $0.append(.appear(message: message)) }
  }

  /// Records a tick.
  public func tick(frame: Int, angle: Double) {
    recorded.withLock { $0.append(.tick(frame: frame, angle: angle)) }
  }

  /// Records a new message.
  public func update(message: String?) {
    recorded.withLock { $0.append(.update(message: message)) }
  }

  /// Records a progress update.
  public func update(progress: Double?) {
    recorded.withLock { $0.append(.progress(progress)) }
  }

  /// Records a disappearance.
  public func disappear(outcome: LoadingOutcome) {
    recorded.withLock { $0.append(.disappear(outcome: outcome)) }
  }
}
