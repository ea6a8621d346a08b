extension DragController {
  /// How fast a flung object slows down, as `UIScrollView.DecelerationRate`: the fraction of its
  /// velocity it keeps every millisecond.
  ///
  /// A release projects the fling with it to choose a snap point: at rate `r`, a velocity `v`
  /// (points per second) decays as `v × r^(t ms)` and covers `v / 1000 × r / (1 - r)` points in
  /// all.
  ///
  /// ```swift
  /// DragController.DecelerationRate.normal.projection(of: 1_000)  // 499 points
  /// ```
  public struct DecelerationRate: Sendable, Hashable {
    /// The fraction kept every millisecond, in 0..<1.
    public var rawValue: Double

    /// Creates a rate. A value outside 0..<1 or not finite is reported when used, and
    /// replaced by ``normal``.
    public init(rawValue: Double) {
      self.rawValue = rawValue
    }

    /// UIScrollView's `.normal`: 0.998 a millisecond.
    public static let normal = DecelerationRate(rawValue: 0.998)
    /// UIScrollView's `.fast`: 0.99 a millisecond.
    public static let fast = DecelerationRate(rawValue: 0.99)

    /// How far a fling of `velocity` points per second travels until it stops:
    /// `velocity / 1000 × r / (1 - r)`.
    ///
    /// - Parameter velocity: The speed along one axis, in points per second.
    /// - Returns: The distance, in points, with the sign of `velocity`.
    public func projection(of velocity: Double) -> Double {
      velocity / 1000 * rawValue / (1 - rawValue)
    }

    /// How far a fling of `velocity` points per second travels until it stops, on each axis.
    public func projection(of velocity: Vector2D) -> Vector2D {
      Vector2D(dx: projection(of: velocity.dx), dy: projection(of: velocity.dy))
    }

    var isValid: Bool { rawValue.isFinite && rawValue >= 0 && rawValue < 1 }
  }
}
