/// What a host shows while it loads: a spinner, a progress HUD, a line in a terminal.
///
/// A ``LoadingController`` calls these methods one at a time and always in the order appear,
/// ticks and message updates, disappear. An indicator is never asked to appear for work that
/// ends within the grace time.
///
/// The calls run in the isolation the controller was created in: on the main actor for a
/// controller made by main-actor code (a ``Loading`` host that is a view, say), so that a
/// main-actor indicator touches its views directly. They run at once when the scheduler ticks
/// on the main queue (the default), otherwise later on the main actor. A controller made by
/// nonisolated code calls its indicator on the scheduler's context.
///
/// ```swift
/// @MainActor final class RotatingImage: @MainActor LoadingIndicator {
///   let view: UIImageView
///   init(view: UIImageView) { self.view = view }
///   func appear(message: String?) { view.isHidden = false }
///   func tick(frame: Int, angle: Double) { view.transform = CGAffineTransform(rotationAngle: angle) }
///   func disappear(outcome: LoadingOutcome) { view.isHidden = true }
/// }
/// ```
///
/// The protocol does not require `Sendable`, so that a main-actor class can conform to it for
/// the main actor alone (`@MainActor LoadingIndicator`, an isolated conformance).
public protocol LoadingIndicator: AnyObject {
  /// Shows the indicator, with `message` if there is one.
  func appear(message: String?)

  /// Advances the indicator's animation.
  ///
  /// - Parameters:
  ///   - frame: The number of ticks since the indicator appeared, from 1.
  ///   - angle: The rotation for this tick in radians, in `0..<2π`: `frame` times the angle per
  ///     tick, wrapped to one turn.
  func tick(frame: Int, angle: Double)

  /// Shows a new message while visible; by default, does nothing until the next appearance.
  func update(message: String?)

  /// Hides the indicator, showing how the work ended if it wants to.
  func disappear(outcome: LoadingOutcome)
}

extension LoadingIndicator {
  /// Ignores the new message.
  public func update(message: String?) {}
}
