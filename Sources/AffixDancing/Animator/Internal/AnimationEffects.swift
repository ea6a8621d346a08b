/// What a call on the engine asks its owner to do once the owner's lock is released.
package struct AnimationEffects: Sendable {
  package enum Outcome: Sendable {
    /// The animation goes on (or has not ended on this call).
    case none
    /// The animation ended at a position: run these completions with it.
    case completed(AnimatingPosition, [AnimationCompletion])
    /// The animation was stopped without finishing: its completions never run.
    case abandoned
  }

  /// Values to write into the host, if they changed.
  package var values: FrameValues?
  package var outcome: Outcome = .none
  /// Completions that will never run, to be released after unlocking: they may hold the last
  /// reference to the host, whose death calls back into its dance.
  package var dropped: [AnimationCompletion] = []
  /// Whether the call stopped repeating after ``AnimationEngine/maximumTraversalsPerAdvance``
  /// traversals and began the next one at the frame's time, dropping the rest.
  package var cutTraversals = false

  package init() {}

  package var completedPosition: AnimatingPosition? {
    if case .completed(let position, _) = outcome { return position }
    return nil
  }
}
