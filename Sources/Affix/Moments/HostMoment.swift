/// A moment in a host's life that work can wait for, declared as a type, as a key is.
///
/// ```swift
/// enum JoinedStage: HostMoment {}
///
/// Associations(of: card).whenReached(JoinedStage.self) { [weak card] in card?.layOut() }
/// // Later, the host's own code:
/// Associations(of: card).reach(JoinedStage.self)  // runs the work
/// ```
///
/// The host reaches it, may leave it and reach it again. See <doc:DraftsAndMoments>.
public protocol HostMoment {}

/// Whether work recorded for a moment runs at the next reach only, or at every reach.
public enum MomentRepetition: Sendable, Hashable {
  /// The work runs once, at the next reach (or at once, if the moment is reached), then is
  /// dropped.
  case once
  /// The work runs at every reach, until it is cancelled or its host dies.
  case everyTime
}
