public import Foundation

/// One event of a pan gesture, as a gesture recogniser reports it.
///
/// A drag is `began`, any number of `changed`, then one of `ended`, `cancelled` or `failed`.
/// Events out of that order are reported as diagnostics and leave the drag as it was.
///
/// ```swift
/// view.drag(.began(at: touch))
/// view.drag(.changed(to: finger))
/// view.drag(.ended(velocity: CGPoint(x: 420, y: -80)))
/// ```
public enum DragEvent: Sendable, Hashable {
  /// The finger went down at a location (in the coordinate space of the host's centre).
  case began(at: CGPoint)
  /// The finger moved to a location.
  case changed(to: CGPoint)
  /// The finger lifted, moving at a velocity in points per second: the fling, as
  /// `UIPanGestureRecognizer.velocity(in:)` gives it.
  case ended(velocity: CGPoint)
  /// The system cancelled the gesture; the host snaps back from rest.
  case cancelled
  /// The gesture failed; the host snaps back from rest.
  case failed
}
