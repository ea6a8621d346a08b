import AffixMotion
public import Foundation

/// A finger letting go of a dragged object: where, how fast, and where the fling would carry it.
///
/// A ``DragController`` makes one for each ``DragEvent/ended(velocity:)``, hands it to the
/// handler given to `DragController.onRelease(_:)` if there is one, and keeps the
/// last as ``DragController/lastRelease``.
///
/// The projection is UIScrollView's (WWDC18 "Designing Fluid Interfaces"): a body that
/// slowed down by ``DragController/decelerationRate`` every millisecond would travel
/// `v / 1000 × r / (1 - r)` points, so `projectedPosition` is where a throw is aimed, and the
/// snap point nearest it is where the object goes unless the handler says otherwise.
///
/// ```swift
/// card.makeDraggable(snapPoints: [left, right])
///   .onRelease { release in
///     release.velocity.y > 1_500 ? .snap(to: offscreen) : .snapToNearest  // throw to dismiss
///   }
/// ```
public struct DragRelease: Sendable, Hashable {
  /// The object's centre when the finger lifted.
  public var position: CGPoint
  /// The fling: the finger's velocity when it lifted, in points per second.
  public var velocity: CGPoint
  /// Where the fling would carry the object if it decelerated as a scroll view does.
  public var projectedPosition: CGPoint
  /// The snap point nearest ``projectedPosition``: where the object snaps by default.
  public var nearestSnapPoint: CGPoint
  /// The snap point the object rested at, or was heading for, when it was grabbed.
  public var previousSnapPoint: CGPoint

  /// Creates a release, for tests of release handlers.
  ///
  /// - Parameters:
  ///   - position: The object's centre when the finger lifted.
  ///   - velocity: The fling, in points per second.
  ///   - projectedPosition: Where the fling would carry it.
  ///   - nearestSnapPoint: The snap point nearest the projection.
  ///   - previousSnapPoint: The snap point it left.
  public init(
    position: CGPoint, velocity: CGPoint, projectedPosition: CGPoint, nearestSnapPoint: CGPoint,
    previousSnapPoint: CGPoint
  ) {
    self.position = position
    self.velocity = velocity
    self.projectedPosition = projectedPosition
    self.nearestSnapPoint = nearestSnapPoint
    self.previousSnapPoint = previousSnapPoint
  }

  /// What happens to a released object.
  public enum Decision: Sendable, Hashable {
    /// Snap to ``DragRelease/nearestSnapPoint``, carrying the fling: the default.
    case snapToNearest
    /// Snap to any point, carrying the fling: another snap point, or one off screen to throw
    /// the object away. A non-finite point is reported and the nearest snap point used.
    case snap(to: CGPoint)
    /// Refuse the move: snap back to ``DragRelease/previousSnapPoint``, carrying the fling.
    case snapBack
    /// Let the app move the object with something else: the body lets go of it where it is
    /// and stops, and its world no longer moves it until the next drag. The fling is in
    /// ``DragRelease/velocity``; ``DragRelease/speed(towards:)`` turns it into a speed along
    /// a path for an animation.
    case handOff
  }

  /// The fling's speed along the line from ``position`` to `target`, in points per second.
  ///
  /// It is positive towards `target`, negative away, zero when the object is already there.
  ///
  /// Divided by the distance, it is the initial velocity of a unit-space spring animation
  /// that carries the object there (`DampedSpring.unitVelocity`), so the animation
  /// starts with the momentum of the throw:
  ///
  /// ```swift
  /// let unit = DampedSpring.unitVelocity(
  ///   pointsPerSecond: release.speed(towards: target), distance: release.distance(to: target))
  /// ```
  ///
  /// - Parameter target: The point the speed is measured towards.
  /// - Returns: The speed, in points per second.
  public func speed(towards target: CGPoint) -> Double {
    let path = target - position
    let length = path.length
    guard length > 0, length.isFinite else { return 0 }
    return (Double(velocity.x) * path.dx + Double(velocity.y) * path.dy) / length
  }

  /// The distance from ``position`` to `target`, in points.
  public func distance(to target: CGPoint) -> Double {
    position.distance(to: target)
  }
}
