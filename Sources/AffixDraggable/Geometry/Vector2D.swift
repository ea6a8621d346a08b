/// A displacement or a velocity in the plane: an offset from a body's centre in points, or a
/// speed in points per second.
///
/// Foundation on Linux has `CGPoint` and `CGRect` but no `CGVector`, so Affix carries this
/// small type for the quantities that are not positions. Its arithmetic is scoped to the type
/// itself and adds nothing to `CGPoint`.
///
/// ```swift
/// let fling = Vector2D(dx: 300, dy: -120)  // points per second
/// let halfway = fling * 0.5
/// ```
public struct Vector2D: Sendable, Hashable, CustomStringConvertible {
  /// The horizontal component.
  public var dx: Double
  /// The vertical component.
  public var dy: Double

  /// Creates a vector from its components.
  public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }

  /// The vector with both components zero.
  public static let zero = Vector2D(dx: 0, dy: 0)

  /// The Euclidean length of the vector.
  public var length: Double { (dx * dx + dy * dy).squareRoot() }

  /// Whether both components are finite (neither infinite nor NaN).
  public var isFinite: Bool { dx.isFinite && dy.isFinite }

  /// The components, as `(dx, dy)`.
  public var description: String { "(\(dx), \(dy))" }

  /// Adds two vectors component by component.
  public static func + (lhs: Vector2D, rhs: Vector2D) -> Vector2D {
    Vector2D(dx: lhs.dx + rhs.dx, dy: lhs.dy + rhs.dy)
  }

  /// Subtracts two vectors component by component.
  public static func - (lhs: Vector2D, rhs: Vector2D) -> Vector2D {
    Vector2D(dx: lhs.dx - rhs.dx, dy: lhs.dy - rhs.dy)
  }

  /// Negates both components.
  public static prefix func - (vector: Vector2D) -> Vector2D {
    Vector2D(dx: -vector.dx, dy: -vector.dy)
  }

  /// Scales a vector.
  public static func * (lhs: Vector2D, rhs: Double) -> Vector2D {
    Vector2D(dx: lhs.dx * rhs, dy: lhs.dy * rhs)
  }

  /// Scales a vector.
  public static func * (lhs: Double, rhs: Vector2D) -> Vector2D {
    rhs * lhs
  }
}
