/// Where an animator is in its life, as `UIViewAnimatingState`.
///
/// | from | call | to / result |
/// |---|---|---|
/// | inactive | start, pause, set progress | active |
/// | active | reaches the end | inactive; completions get `.end` (`.start` if reversed) |
/// | active | stop without finishing | inactive; no completions |
/// | active | stop | stopped; values frozen where they are |
/// | stopped | finish(at:) | inactive; completions get that position |
public enum AnimatingState: Sendable, Hashable, CustomStringConvertible {
  /// Not started, or done: nothing is animating.
  case inactive
  /// Started: running, waiting out a start delay, or paused.
  case active
  /// Stopped part way; only `finish(at:)` moves it on.
  case stopped

  /// The state's name.
  public var description: String {
    switch self {
    case .inactive: "inactive"
    case .active: "active"
    case .stopped: "stopped"
    }
  }
}

/// Where an animation ended, as `UIViewAnimatingPosition`.
public enum AnimatingPosition: Sendable, Hashable, CustomStringConvertible {
  /// The animated properties hold their target values.
  case end
  /// The animated properties hold the values they had before the animation.
  case start
  /// The animated properties hold whatever values they had when the animation was finished.
  case current

  /// The position's name.
  public var description: String {
    switch self {
    case .end: "end"
    case .start: "start"
    case .current: "current"
    }
  }
}
