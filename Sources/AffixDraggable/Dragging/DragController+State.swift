import AffixMotion
import Foundation

/// What the controller holds under its lock, and what a drag that ends takes from it.
extension DragController {
  struct State {
    var isDragging = false
    var snapPoints: [CGPoint]
    /// The snap point the object rests at or heads for.
    var snapPoint: CGPoint
    var snap: DampedSpring
    var attachment: DampedSpring?
    var decelerationRate = DecelerationRate.normal
    var releaseHandler: ReleaseHandler?
    var lastRelease: DragRelease?
    /// Drags begun so far, so that a decision that arrives after the next drag began is
    /// dropped.
    var drags = 0
  }

  /// What a drag that ends hands to ``DragController/release(_:_:from:)``.
  struct Ending {
    var snapPoints: [CGPoint]
    var previous: CGPoint
    var snap: DampedSpring
    var rate: DecelerationRate
    var handler: ReleaseHandler?
    var drag: Int
  }
}
