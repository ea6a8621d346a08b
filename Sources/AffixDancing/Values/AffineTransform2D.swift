public import Foundation

/// A 2D affine transform, laid out like Core Graphics' `CGAffineTransform`.
///
/// A point maps as `x' = a x + c y + tx`, `y' = b x + d y + ty`.
///
/// Transforms interpolate by their parts (translation, rotation, scale, shear) rather than
/// entry by entry, so a half-turn passes through a quarter-turn instead of collapsing through a
/// zero matrix on the way:
///
/// ```swift
/// let half = AffineTransform2D.interpolate(
///   from: .identity, to: AffineTransform2D(rotationAngle: .pi), fraction: 0.5)
/// // half == AffineTransform2D(rotationAngle: .pi / 2), up to rounding
/// ```
public struct AffineTransform2D: Interpolatable, Hashable, CustomStringConvertible {
  /// The entry that scales x into x.
  public var a: Double
  /// The entry that carries x into y.
  public var b: Double
  /// The entry that carries y into x.
  public var c: Double
  /// The entry that scales y into y.
  public var d: Double
  /// The horizontal translation.
  public var tx: Double
  /// The vertical translation.
  public var ty: Double

  /// Creates a transform from its six entries.
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// The transform that leaves every point where it is.
  public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A translation by `x` and `y`.
  public init(translationX x: Double, y: Double) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  /// A scale by `x` horizontally and `y` vertically.
  public init(scaleX x: Double, y: Double) {
    self.init(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
  }

  /// A rotation by `angle` radians; positive angles turn x towards y.
  public init(rotationAngle angle: Double) {
    let (sine, cosine) = (sin(angle), cos(angle))
    self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// The transform that applies `self` first and then `other`.
  public func concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
    AffineTransform2D(
      a: a * other.a + b * other.c,
      b: a * other.b + b * other.d,
      c: c * other.a + d * other.c,
      d: c * other.b + d * other.d,
      tx: tx * other.a + ty * other.c + other.tx,
      ty: tx * other.b + ty * other.d + other.ty)
  }

  /// Maps a point through the transform.
  public func apply(to point: CGPoint) -> CGPoint {
    let (x, y) = (Double(point.x), Double(point.y))
    return CGPoint(x: a * x + c * y + tx, y: b * x + d * y + ty)
  }

  /// The entries, for logs.
  public var description: String {
    "AffineTransform2D(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))"
  }

  /// Blends translation, rotation (the short way round), scale and shear linearly.
  public static func interpolate(
    from start: AffineTransform2D, to end: AffineTransform2D, fraction: Double
  )
    -> AffineTransform2D
  {
    let from = Parts(start)
    let to = Parts(end)
    var turn = (to.angle - from.angle).remainder(dividingBy: 2 * .pi)
    if turn == -.pi { turn = .pi }
    let blended = Parts(
      translationX: .interpolate(from: from.translationX, to: to.translationX, fraction: fraction),
      translationY: .interpolate(from: from.translationY, to: to.translationY, fraction: fraction),
      angle: from.angle + turn * fraction,
      scaleX: .interpolate(from: from.scaleX, to: to.scaleX, fraction: fraction),
      scaleY: .interpolate(from: from.scaleY, to: to.scaleY, fraction: fraction),
      shear: .interpolate(from: from.shear, to: to.shear, fraction: fraction)
    ).transform
    guard !blended.isFinite, start.isFinite, end.isFinite, fraction.isFinite else {
      return blended
    }
    // Entries too large to split into rotation and scale (their squares overflow): blended
    // one by one, as their values are.
    return AffineTransform2D(
      a: .interpolate(from: start.a, to: end.a, fraction: fraction),
      b: .interpolate(from: start.b, to: end.b, fraction: fraction),
      c: .interpolate(from: start.c, to: end.c, fraction: fraction),
      d: .interpolate(from: start.d, to: end.d, fraction: fraction),
      tx: .interpolate(from: start.tx, to: end.tx, fraction: fraction),
      ty: .interpolate(from: start.ty, to: end.ty, fraction: fraction))
  }

  /// Whether every entry is finite.
  private var isFinite: Bool {
    a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
  }
}

extension AffineTransform2D {
  /// A transform split as translate * rotate * shear * scale (Gram-Schmidt on the rows); a
  /// reflection is carried by a negative `scaleY`.
  struct Parts {
    var translationX: Double
    var translationY: Double
    var angle: Double
    var scaleX: Double
    var scaleY: Double
    var shear: Double

    init(
      translationX: Double, translationY: Double, angle: Double, scaleX: Double, scaleY: Double,
      shear: Double
    ) {
      self.translationX = translationX
      self.translationY = translationY
      self.angle = angle
      self.scaleX = scaleX
      self.scaleY = scaleY
      self.shear = shear
    }

    init(_ transform: AffineTransform2D) {
      translationX = transform.tx
      translationY = transform.ty
      scaleX = (transform.a * transform.a + transform.b * transform.b).squareRoot()
      let (cosine, sine) = scaleX > 0 ? (transform.a / scaleX, transform.b / scaleX) : (1, 0)
      angle = atan2(sine, cosine)
      let along = cosine * transform.c + sine * transform.d
      let restX = transform.c - along * cosine
      let restY = transform.d - along * sine
      // The rest is perpendicular to the first row; its side of it tells a reflection.
      let side = cosine * restY - sine * restX
      let length = (restX * restX + restY * restY).squareRoot()
      scaleY = side < 0 ? -length : length
      shear = scaleY != 0 ? along / scaleY : 0
    }

    var transform: AffineTransform2D {
      let (sine, cosine) = (sin(angle), cos(angle))
      return AffineTransform2D(
        a: scaleX * cosine,
        b: scaleX * sine,
        c: scaleY * (-sine + shear * cosine),
        d: scaleY * (cosine + shear * sine),
        tx: translationX,
        ty: translationY)
    }
  }
}
