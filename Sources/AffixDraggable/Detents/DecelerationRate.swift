public import AffixScheduling

extension DecelerationRate {
  /// How far a fling of `velocity` points per second travels until it stops, on each axis:
  /// the projection of each component.
  ///
  /// ```swift
  /// DecelerationRate.normal.projection(of: Vector2D(dx: 1_000, dy: 0))  // 499 points along x
  /// ```
  public func projection(of velocity: Vector2D) -> Vector2D {
    Vector2D(dx: projection(of: velocity.dx), dy: projection(of: velocity.dy))
  }
}
