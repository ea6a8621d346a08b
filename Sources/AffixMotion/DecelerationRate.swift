/// How quickly a flung motion slows down: the fraction of its velocity kept each millisecond,
/// as `UIScrollView.DecelerationRate`.
///
/// One rate serves every kind of momentum: a Dancing decay glides with it, and a released
/// drag projects its fling with it to choose where to snap.
///
/// ```swift
/// DecelerationRate.normal.rawValue  // 0.998
/// DecelerationRate(rawValue: 0.995)  // between the two; nil outside 0 < r < 1
/// DecelerationRate.normal.projection(of: 1_000)  // 499: how far 1,000 points a second glides
/// ```
public struct DecelerationRate: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
  /// The fraction of the velocity kept per millisecond, in `0 < r < 1`.
  public let rawValue: Double

  /// A rate keeping `rawValue` of the velocity each millisecond.
  ///
  /// It is nil unless `rawValue` is finite and strictly between 0 and 1 (1 would never stop,
  /// 0 stops at once).
  ///
  /// - Parameter rawValue: The fraction of the velocity kept per millisecond, in `0 < r < 1`.
  public init?(rawValue: Double) {
    guard rawValue.isFinite, rawValue > 0, rawValue < 1 else { return nil }
    self.rawValue = rawValue
  }

  private init(checked rawValue: Double) {
    self.rawValue = rawValue
  }

  /// UIScrollView's normal rate, 0.998: a long glide.
  public static let normal = DecelerationRate(checked: 0.998)
  /// UIScrollView's fast rate, 0.99: stops quickly.
  public static let fast = DecelerationRate(checked: 0.99)

  /// The longest projection, either way: a glide past it is held here.
  ///
  /// A glide of 1e300 points a second at a rate a hair below 1 overflows to infinity; holding
  /// it here keeps a start plus the projection, and the time the glide takes, finite. What
  /// calls it with a caller's line (a decay, a drag's release) reports the hold.
  public static let maximumProjection = 1e300

  /// How far a motion leaving at `velocity` (units a second) glides before it stops, with the
  /// sign of `velocity`.
  ///
  /// It is `v / 1000 * r / (1 - r)`, held within ±``maximumProjection``; 0 for a velocity that
  /// is not finite.
  ///
  /// Each millisecond the velocity is multiplied by `r` and the value moves by the velocity for
  /// that millisecond, so the distance is the sum `v / 1000 * (r + r^2 + ...)`. It is the
  /// projection of WWDC 2018's "Designing Fluid Interfaces".
  ///
  /// - Parameter velocity: The speed the motion leaves at, in units a second.
  /// - Returns: The distance glided, in the velocity's units.
  public func projection(of velocity: Double) -> Double {
    guard velocity.isFinite else { return 0 }
    let projection = velocity / 1000 * (rawValue / (1 - rawValue))
    return min(max(projection, -Self.maximumProjection), Self.maximumProjection)
  }

  /// Whether the projection of `velocity` is held at ±``maximumProjection``.
  public func holdsProjection(of velocity: Double) -> Bool {
    let projection = velocity / 1000 * (rawValue / (1 - rawValue))
    return velocity.isFinite && !(abs(projection) <= Self.maximumProjection)
  }

  /// The rate, for logs.
  public var description: String { "DecelerationRate(\(rawValue))" }
}
