import Foundation

/// A displacement or a velocity in the plane: an offset from a body's centre in points, or a
/// speed in points per second.
///
/// The physics' own arithmetic type. The public API gives velocities and offsets as
/// `CGPoint`, as `UIPanGestureRecognizer.velocity(in:)` and UIKit Dynamics do (Foundation on
/// Linux has no `CGVector`); this type keeps its arithmetic to itself and adds nothing to
/// `CGPoint`.
///
/// ```swift
/// let fling = Vector2D(dx: 300, dy: -120)  // points per second
/// let halfway = fling * 0.5
/// ```
package struct Vector2D: Sendable, Hashable, CustomStringConvertible {
  /// The horizontal component.
  package var dx: Double
  /// The vertical component.
  package var dy: Double

  /// Creates a vector from its components.
  package init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }

  /// The vector with both components zero.
  package static let zero = Vector2D(dx: 0, dy: 0)

  /// The Euclidean length of the vector.
  package var length: Double { (dx * dx + dy * dy).squareRoot() }

  /// Whether both components are finite (neither infinite nor NaN).
  package var isFinite: Bool { dx.isFinite && dy.isFinite }

  /// The components, as `(dx, dy)`.
  package var description: String { "(\(dx), \(dy))" }

  /// Adds two vectors component by component.
  package static func + (lhs: Vector2D, rhs: Vector2D) -> Vector2D {
    Vector2D(dx: lhs.dx + rhs.dx, dy: lhs.dy + rhs.dy)
  }

  /// Subtracts two vectors component by component.
  package static func - (lhs: Vector2D, rhs: Vector2D) -> Vector2D {
    Vector2D(dx: lhs.dx - rhs.dx, dy: lhs.dy - rhs.dy)
  }

  /// Negates both components.
  package static prefix func - (vector: Vector2D) -> Vector2D {
    Vector2D(dx: -vector.dx, dy: -vector.dy)
  }

  /// Scales a vector.
  package static func * (lhs: Vector2D, rhs: Double) -> Vector2D {
    Vector2D(dx: lhs.dx * rhs, dy: lhs.dy * rhs)
  }

  /// Scales a vector.
  package static func * (lhs: Double, rhs: Vector2D) -> Vector2D {
    rhs * lhs
  }
}

extension Vector2D {
  /// The components of a point, as a vector: a velocity or an offset given as `CGPoint`.
  init(_ point: CGPoint) {
    self.init(dx: Double(point.x), dy: Double(point.y))
  }
}

extension CGPoint {
  /// The vector's components, as the public API gives velocities and offsets.
  init(_ vector: Vector2D) {
    self.init(x: CGFloat(vector.dx), y: CGFloat(vector.dy))
  }
}
