public import AffixMotion
import AffixScheduling
public import Foundation

extension DecelerationRate {
  /// How far a fling of `velocity` points per second travels until it stops, on each axis:
  /// the projection of each component, as a displacement.
  ///
  /// ```swift
  /// DecelerationRate.normal.projection(of: CGPoint(x: 1_000, y: 0))  // (499, 0)
  /// ```
  public func projection(of velocity: CGPoint) -> CGPoint {
    CGPoint(x: projection(of: Double(velocity.x)), y: projection(of: Double(velocity.y)))
  }
}
