public import AffixMotion
import AffixScheduling
import Foundation

/// A momentum motion: a velocity that loses a fixed fraction of itself every millisecond, as a
/// scroll view decelerates after a flick.
///
/// Each millisecond the velocity is multiplied by the rate `r` and the value moves by the
/// velocity for that millisecond, so that after `n` milliseconds it has moved
/// `v / 1000 * (r + r^2 + ... + r^n) = v / 1000 * r / (1 - r) * (1 - r^n)`. Between whole
/// milliseconds the same formula holds with `n = 1000 t`:
///
/// `x(t) = x0 + d (1 - r^(1000 t))`, with `d = v / 1000 * r / (1 - r)`
///
/// It comes to rest at `x0 + d`, the projection of WWDC 2018's "Designing Fluid Interfaces",
/// which is known before the motion starts. (The continuous decay `v(t) = v0 r^(1000 t)` would
/// rest at `x0 - v0 / (1000 ln r)`, 0.1% further for the normal rate; this one moves over its
/// first millisecond by `v r / 1000`, as the stepped model does.)
///
/// ```swift
/// let fling = Decay(velocity: 1200, rate: .normal)
/// fling.projectedDistance          // 598.8: where a flick at 1200 points per second stops
/// fling.offset(at: 0.5)            // how far it has gone after half a second
/// card.dance.decay(\.x, velocity: 1200).start()
/// ```
public struct Decay: Sendable, Hashable, CustomStringConvertible {
  /// The velocity at the start, in units of the property per second.
  public let velocity: Double
  /// The fraction of the velocity kept each millisecond.
  public let rate: DecelerationRate

  /// How close to its resting value a decay must come to count as at rest, in the property's
  /// units: half a point, below what a screen shows. When every property is that close, the
  /// animation places them on their resting values and completes.
  public static let restThreshold = 0.5

  /// A decay from `velocity` (a value that is not finite becomes 0) at `rate`.
  public init(velocity: Double, rate: DecelerationRate = .normal) {
    self.velocity = velocity.isFinite ? velocity : 0
    self.rate = rate
  }

  /// How far the motion goes before it stops: `v / 1000 * r / (1 - r)`.
  public var projectedDistance: Double {
    Self.projectedDistance(velocity: velocity, rate: rate)
  }

  /// How far a motion leaving at `velocity` goes before it stops: `v / 1000 * r / (1 - r)`,
  /// 0 for a velocity that is not finite. What a release adds to its position to pick its
  /// destination before any motion starts.
  public static func projectedDistance(velocity: Double, rate: DecelerationRate = .normal)
    -> Double
  {
    guard velocity.isFinite else { return 0 }
    return rate.projection(of: velocity)
  }

  /// How far the motion has gone `time` seconds after it started: `d (1 - r^(1000 t))`.
  public func offset(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    return projectedDistance * -expm1(Self.exponent(rate) * time)
  }

  /// The velocity `time` seconds after the start: the derivative of ``offset(at:)``,
  /// `d ln(1/r) 1000 r^(1000 t)`.
  public func velocity(at time: Double) -> Double {
    let exponent = Self.exponent(rate)
    return -projectedDistance * exponent * exp(exponent * max(time, 0))
  }

  /// When the motion comes within `threshold` of its resting value: 0 if it starts there.
  public func restingTime(threshold: Double = Decay.restThreshold) -> Double {
    Self.restingTime(distance: projectedDistance, rate: rate, threshold: threshold)
  }

  /// The description, for logs.
  public var description: String { "Decay(velocity: \(velocity), rate: \(rate.rawValue))" }

  /// `1000 ln r`: the motion left is `d e^(exponent t)`.
  static func exponent(_ rate: DecelerationRate) -> Double {
    1000 * log(rate.rawValue)
  }

  /// When a decay over `distance` comes within `threshold` of its end.
  static func restingTime(distance: Double, rate: DecelerationRate, threshold: Double) -> Double {
    let threshold = threshold.isFinite && threshold > 0 ? threshold : restThreshold
    guard abs(distance) > threshold else { return 0 }
    return log(threshold / abs(distance)) / exponent(rate)
  }
}
