import Foundation

// Kept internal: public `CGPoint` operators would collide with any other library's.
extension CGPoint {
  init(_ x: Double, _ y: Double) {
    self.init(x: CGFloat(x), y: CGFloat(y))
  }

  var isFinite: Bool { x.isFinite && y.isFinite }

  /// This finite point brought within ``DynamicsWorld/maximumCoordinate`` of the origin along
  /// each axis, or nil when it lies within already.
  var heldWithinCoordinates: CGPoint? {
    let bound = DynamicsWorld.maximumCoordinate
    let (x, y) = (Double(self.x), Double(self.y))
    let held = CGPoint(min(max(x, -bound), bound), min(max(y, -bound), bound))
    return held == self ? nil : held
  }

  /// This finite velocity brought within ``DynamicsWorld/maximumSpeed`` along each axis, or nil
  /// when it lies within already.
  var heldWithinSpeeds: CGPoint? {
    let bound = DynamicsWorld.maximumSpeed
    let (x, y) = (Double(self.x), Double(self.y))
    let held = CGPoint(min(max(x, -bound), bound), min(max(y, -bound), bound))
    return held == self ? nil : held
  }

  static func + (lhs: CGPoint, rhs: Vector2D) -> CGPoint {
    CGPoint(Double(lhs.x) + rhs.dx, Double(lhs.y) + rhs.dy)
  }

  static func - (lhs: CGPoint, rhs: Vector2D) -> CGPoint {
    CGPoint(Double(lhs.x) - rhs.dx, Double(lhs.y) - rhs.dy)
  }

  static func - (lhs: CGPoint, rhs: CGPoint) -> Vector2D {
    Vector2D(dx: Double(lhs.x - rhs.x), dy: Double(lhs.y - rhs.y))
  }

  func distance(to other: CGPoint) -> Double {
    (self - other).length
  }
}

extension CGRect {
  /// Whether the rectangle can bound a body: finite, not null, not negative in size.
  var isUsableBounds: Bool {
    !isNull && !isInfinite && origin.x.isFinite && origin.y.isFinite && size.width.isFinite
      && size.height.isFinite && size.width >= 0 && size.height >= 0
  }

  /// The point inside the rectangle (edges included) nearest to `point`.
  func clamping(_ point: CGPoint) -> CGPoint {
    CGPoint(x: min(max(point.x, minX), maxX), y: min(max(point.y, minY), maxY))
  }
}
