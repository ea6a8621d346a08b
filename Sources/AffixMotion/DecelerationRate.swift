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

  /// A rate keeping `rawValue` of the velocity each millisecond; nil unless `rawValue` is
  /// finite and strictly between 0 and 1 (1 would never stop, 0 stops at once).
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

  /// How far a motion leaving at `velocity` (units a second) glides before it stops, with the
  /// sign of `velocity`: `v / 1000 * r / (1 - r)`.
  ///
  /// Each millisecond the velocity is multiplied by `r` and the value moves by the velocity for
  /// that millisecond, so the distance is the sum `v / 1000 * (r + r^2 + ...)`. It is the
  /// projection of WWDC 2018's "Designing Fluid Interfaces".
  public func projection(of velocity: Double) -> Double {
    velocity / 1000 * rawValue / (1 - rawValue)
  }

  /// The rate, for logs.
  public var description: String { "DecelerationRate(\(rawValue))" }
}
