/// What a host shows while it loads: a spinner, a progress HUD, a line in a terminal.
///
/// A ``LoadingController`` calls these methods on its scheduler's context (the main queue by
/// default), one at a time and always in the order appear, ticks, disappear. An indicator is
/// never asked to appear for work that ends within the grace time.
///
/// ```swift
/// final class RotatingImage: LoadingIndicator {
///   let view: UIImageView
///   init(view: UIImageView) { self.view = view }
///   func appear(message: String?) { view.isHidden = false }
///   func tick(frame: Int, angle: Double) { view.transform = CGAffineTransform(rotationAngle: angle) }
///   func disappear(outcome: LoadingOutcome) { view.isHidden = true }
/// }
/// ```
public protocol LoadingIndicator: AnyObject, Sendable {
  /// Shows the indicator, with `message` if there is one.
  func appear(message: String?)

  /// Advances the indicator's animation.
  ///
  /// - Parameters:
  ///   - frame: The number of ticks since the indicator appeared, from 1.
  ///   - angle: The rotation for this tick in radians, in `0..<2π`: `frame` times the angle per
  ///     tick, wrapped to one turn.
  func tick(frame: Int, angle: Double)

  /// Hides the indicator, showing how the work ended if it wants to.
  func disappear(outcome: LoadingOutcome)
}
