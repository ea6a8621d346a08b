/// What a host shows while it loads: a spinner, a progress bar, a HUD, a line in a terminal.
///
/// A ``LoadingController`` calls these methods one at a time and always in the order appear,
/// then ticks and updates of the message or the progress, then disappear. An indicator is never
/// asked to appear for work that ends within the grace time.
///
/// Only ``appear(message:)`` and ``disappear(outcome:)`` are required. Progress is
/// indeterminate until the work reports a fraction (``update(progress:)``), as with SwiftUI's
/// `ProgressView`. Ticks are opt-in: an indicator that the platform animates (a
/// `UIActivityIndicatorView`, a `ProgressView`) leaves ``wantsTicks`` `false`, and its
/// controller schedules no timer at all; one that animates itself frame by frame, as
/// ``TerminalSpinner`` does, returns `true` and gets ``tick(frame:angle:)`` on every tick.
///
/// The calls run in the isolation the controller was created in: on the main actor for a
/// controller made by main-actor code (a ``Loading`` host that is a view, say), so that a
/// main-actor indicator touches its views directly. They run at once when the clock ticks
/// on the main queue (the default), otherwise later on the main actor. A controller made on
/// another actor calls its indicator later on that actor; nonisolated code cannot make one
/// for a host, and the hostless ``withLoading(message:indicator:clock:options:fileID:line:_:)``
/// takes a `Sendable` indicator, called on its clock's context.
///
/// ```swift
/// @MainActor final class RotatingImage: @MainActor LoadingIndicator {
///   let view: UIImageView
///   init(view: UIImageView) { self.view = view }
///   var wantsTicks: Bool { true }
///   func appear(message: String?) { view.isHidden = false }
///   func tick(frame: Int, angle: Double) { view.transform = CGAffineTransform(rotationAngle: angle) }
///   func disappear(outcome: LoadingOutcome) { view.isHidden = true }
/// }
/// ```
///
/// The protocol does not require `Sendable`, so that a main-actor class can conform to it for
/// the main actor alone (`@MainActor LoadingIndicator`, an isolated conformance).
public protocol LoadingIndicator: AnyObject {
  /// Whether the indicator wants ``tick(frame:angle:)`` calls while it is visible; read once,
  /// when its controller is created. `false` by default: no timer runs for it.
  var wantsTicks: Bool { get }

  /// Shows the indicator, with `message` if there is one; its progress is indeterminate until
  /// an ``update(progress:)`` says otherwise.
  func appear(message: String?)

  /// Advances the indicator's animation; called only when ``wantsTicks`` is `true`.
  ///
  /// - Parameters:
  ///   - frame: The number of ticks since the indicator appeared, from 1.
  ///   - angle: The rotation for this tick in radians, in `0..<2π`: `frame` times the angle per
  ///     tick, wrapped to one turn.
  func tick(frame: Int, angle: Double)

  /// Shows a new message while visible; by default, does nothing until the next appearance.
  func update(message: String?)

  /// Shows how far the work is while visible: a fraction in `0...1`, or `nil` when it is
  /// indeterminate again. Does nothing by default.
  func update(progress: Double?)

  /// Hides the indicator, showing how the work ended if it wants to.
  func disappear(outcome: LoadingOutcome)
}

extension LoadingIndicator {
  /// No ticks.
  public var wantsTicks: Bool { false }

  /// Does nothing: an indicator that wants no ticks is never ticked.
  public func tick(frame: Int, angle: Double) {}

  /// Ignores the new message.
  public func update(message: String?) {}

  /// Ignores the progress.
  public func update(progress: Double?) {}
}
