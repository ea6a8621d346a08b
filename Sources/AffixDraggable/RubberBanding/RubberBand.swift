public import Foundation

/// The resistance a body meets when it is dragged past its bounds, as `UIScrollView`'s
/// content meets it past its edges.
///
/// Past an edge, a finger that has gone `x` points too far moves the body only
///
/// `offset = (1 - 1 / (x × c / d + 1)) × d`
///
/// points beyond it, the curve Wave and others publish after UIKit, with `c` the
/// ``coefficient`` (0.55 as in UIKit) and `d` the dimension of the bounds along that axis. The
/// first points of overshoot follow the finger at `c` of its speed; the offset never reaches
/// `d`. When the finger lifts, the body springs back inside.
///
/// ```swift
/// card.makeDraggable(bounds: track, rubberBand: .standard)
/// RubberBand.standard.offset(forOvershoot: 100, dimension: 320)  // 46.93 points
/// ```
///
/// ![The rubber-band curve: the offset grows with the overshoot, ever more slowly, towards the dimension.](draggable-rubber-band)
public struct RubberBand: Sendable, Hashable {
  /// How stiff the band is: the fraction of the finger's motion that shows at the edge.
  /// Larger stretches further.
  public var coefficient: Double
  /// The dimensions `d` of the curve along each axis, in points; `nil` takes the size of the
  /// body's bounds. An axis of dimension zero does not stretch at all.
  public var dimensions: CGSize?

  /// UIKit's coefficient, 0.55.
  public static let defaultCoefficient = 0.55

  /// UIKit's band: coefficient 0.55, dimensions from the bounds.
  public static let standard = RubberBand()

  /// Creates a band.
  ///
  /// A coefficient that is not finite and positive, or dimensions that are not finite and
  /// non-negative, are reported as diagnostics when the band is used, and replaced by the
  /// defaults.
  ///
  /// - Parameters:
  ///   - coefficient: The stiffness; 0.55 as in UIKit.
  ///   - dimensions: The dimension of the curve along each axis; the bounds' size if `nil`.
  public init(coefficient: Double = RubberBand.defaultCoefficient, dimensions: CGSize? = nil) {
    self.coefficient = coefficient
    self.dimensions = dimensions
  }

  /// How far past an edge the body shows for an overshoot of the finger:
  /// `(1 - 1 / (|x| × c / d + 1)) × d`, with the sign of `overshoot`.
  ///
  /// Zero for a dimension of zero or less; the coefficient is used as it is.
  ///
  /// ```swift
  /// RubberBand.standard.offset(forOvershoot: 50, dimension: 100)  // 100 × (1 - 1 / 1.275)
  /// ```
  ///
  /// - Parameters:
  ///   - overshoot: How far past the edge the finger holds the body, in points.
  ///   - dimension: The dimension `d`, in points.
  /// - Returns: The displayed offset past the edge, between `-dimension` and `dimension`.
  public func offset(forOvershoot overshoot: Double, dimension: Double) -> Double {
    Self.offset(overshoot, c: coefficient, d: dimension)
  }

  /// The overshoot that shows as `offset`: the inverse of ``offset(forOvershoot:dimension:)``,
  /// `x = y × d / (c × (d - |y|))`. An offset of `dimension` or more has no overshoot; it
  /// returns infinity with the sign of `offset`.
  ///
  /// - Parameters:
  ///   - offset: The displayed offset past the edge, in points.
  ///   - dimension: The dimension `d`, in points.
  /// - Returns: The overshoot of the finger, in points.
  public func overshoot(forOffset offset: Double, dimension: Double) -> Double {
    Self.overshoot(offset, c: coefficient, d: dimension)
  }

  /// Clamps `value` to `range` with the band's resistance outside: the edge plus
  /// ``offset(forOvershoot:dimension:)`` of how far the value is past it.
  ///
  /// ```swift
  /// RubberBand.standard.clamp(130, to: 0...100, dimension: 100)  // 100 + 14.2
  /// ```
  ///
  /// - Parameters:
  ///   - value: The value the finger asks for.
  ///   - range: The range it may reach without resistance.
  ///   - dimension: The dimension `d`, in points.
  /// - Returns: The value shown.
  public func clamp(_ value: Double, to range: ClosedRange<Double>, dimension: Double) -> Double {
    Self.band(value, range.lowerBound, range.upperBound, c: coefficient, d: dimension)
  }

  @inline(__always)
  static func offset(_ x: Double, c: Double, d: Double) -> Double {
    guard d > 0 else { return 0 }
    let magnitude = (1 - 1 / (abs(x) * c / d + 1)) * d
    return x < 0 ? -magnitude : magnitude
  }

  static func overshoot(_ y: Double, c: Double, d: Double) -> Double {
    guard d > 0, c > 0 else { return 0 }
    guard abs(y) < d else { return y < 0 ? -.infinity : .infinity }
    return y * d / (c * (d - abs(y)))
  }

  /// `value` banded against `low...high`.
  @inline(__always)
  static func band(_ value: Double, _ low: Double, _ high: Double, c: Double, d: Double) -> Double {
    if value < low { return low + offset(value - low, c: c, d: d) }
    if value > high { return high + offset(value - high, c: c, d: d) }
    return value
  }

  /// The inverse of ``band(_:_:_:c:d:)``: where a finger holds a body that shows at `shown`.
  static func unband(_ shown: Double, _ low: Double, _ high: Double, c: Double, d: Double)
    -> Double
  {
    if shown < low { return low + overshoot(shown - low, c: c, d: d) }
    if shown > high { return high + overshoot(shown - high, c: c, d: d) }
    return shown
  }

  /// The band with unusable values replaced by the defaults, each reported.
  func validated() -> RubberBand {
    var band = self
    if !coefficient.isFinite || coefficient <= 0 {
      diagnose(
        "rubber band coefficient \(coefficient) is not a finite value > 0; using "
          + "\(Self.defaultCoefficient)")
      band.coefficient = Self.defaultCoefficient
    }
    if let size = dimensions,
      !size.width.isFinite || !size.height.isFinite || size.width < 0 || size.height < 0
    {
      diagnose(
        "rubber band dimensions \(size) are not finite and >= 0; using the size of the bounds")
      band.dimensions = nil
    }
    return band
  }
}
