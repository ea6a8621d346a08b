import Foundation

/// A damped spring that carries an animation from 0 to 1: `m x'' + c x' + k (x - 1) = 0`.
///
/// The motion follows the closed forms of the damped oscillator. With `u = x - 1`,
/// `u(0) = -1`, `u'(0) = v0`, natural frequency `w0 = sqrt(k / m)` and damping ratio
/// `zeta = c / (2 sqrt(k m))`:
/// - `zeta < 1`: `u = e^(-zeta w0 t) [u0 cos(wd t) + (v0 + zeta w0 u0) / wd sin(wd t)]`,
///   with `wd = w0 sqrt(1 - zeta^2)`;
/// - `zeta = 1`: `u = e^(-w0 t) [u0 + (v0 + w0 u0) t]`;
/// - `zeta > 1`: `u = e^(-zeta w0 t) [u0 cosh(s t) + (v0 + zeta w0 u0) / s sinh(s t)]`,
///   with `s = w0 sqrt(zeta^2 - 1)`.
///
/// The initial velocity is in unit space: 1 covers the whole distance in one second.
///
/// ```swift
/// let bouncy = Spring(response: 0.5, bounce: 0.3)
/// bouncy.value(at: 0.25)       // past halfway, heading for an overshoot
/// bouncy.settlingDuration      // when it stays within 0.001 of the end
/// ```
public struct Spring: Sendable, Hashable, CustomStringConvertible {
  /// The moving mass, greater than 0.
  public let mass: Double
  /// The spring constant k, greater than 0.
  public let stiffness: Double
  /// The damping coefficient c; at least ``minimumDampingRatio`` of critical damping.
  public let damping: Double
  /// The velocity at time 0, in fractions of the distance per second.
  public let initialVelocity: Double

  /// The smallest damping ratio a spring gets, so that every animation comes to rest.
  public static let minimumDampingRatio = 0.01

  /// How close to the end a spring must stay to count as settled.
  public static let settlingTolerance = 0.001

  /// Creates a spring from its physical constants.
  ///
  /// Unusable constants are replaced rather than trapped on: a mass or stiffness that is not
  /// finite and positive becomes 1 or that of a 0.5 s response, a damping below
  /// ``minimumDampingRatio`` of critical is raised to it, a non-finite velocity becomes 0.
  /// ``isValid(mass:stiffness:damping:initialVelocity:)`` tells whether that happened.
  public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
    let mass = mass.isFinite && mass > 0 ? mass : 1
    let stiffness =
      stiffness.isFinite && stiffness > 0 ? stiffness : Self.stiffness(response: 0.5, mass: mass)
    let critical = 2 * (stiffness * mass).squareRoot()
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping.isFinite ? max(damping, critical * Self.minimumDampingRatio) : critical
    self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
  }

  /// Creates a spring from its response (the period of the undamped spring, in seconds) and
  /// bounce (0 for none, towards 1 for more; negative values overdamp), as SwiftUI does:
  /// `stiffness = (2 pi / response)^2 m`, `damping = 4 pi (1 - bounce) m / response`.
  public init(response: Double, bounce: Double = 0, initialVelocity: Double = 0) {
    let response = response.isFinite && response > 0 ? response : 0.5
    let bounce = bounce.isFinite ? min(bounce, 1) : 0
    self.init(
      mass: 1,
      stiffness: Self.stiffness(response: response, mass: 1),
      damping: 4 * .pi * (1 - bounce) / response,
      initialVelocity: initialVelocity)
  }

  /// Creates a spring with mass 1 from its damping ratio and natural frequency in rad/s.
  public init(dampingRatio: Double, naturalFrequency: Double, initialVelocity: Double = 0) {
    let frequency = naturalFrequency.isFinite && naturalFrequency > 0 ? naturalFrequency : 1
    self.init(
      mass: 1, stiffness: frequency * frequency,
      damping: 2 * (dampingRatio.isFinite ? dampingRatio : 1) * frequency,
      initialVelocity: initialVelocity)
  }

  /// Whether ``init(mass:stiffness:damping:initialVelocity:)`` takes these constants as they
  /// are.
  public static func isValid(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0
  ) -> Bool {
    guard mass.isFinite, mass > 0, stiffness.isFinite, stiffness > 0, damping.isFinite,
      initialVelocity.isFinite
    else { return false }
    return damping >= 2 * (stiffness * mass).squareRoot() * minimumDampingRatio
  }

  /// `zeta = c / (2 sqrt(k m))`: below 1 it overshoots, 1 is critical, above 1 it creeps.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// `w0 = sqrt(k / m)`, in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// The animation's progress `time` seconds after it started: 0 at the start, 1 at rest;
  /// an underdamped spring passes 1 and comes back.
  public func value(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    return 1 + displacement(at: time)
  }

  /// The time after which the spring stays within ``settlingTolerance`` of the end, from an
  /// upper bound of the oscillation's envelope.
  public var settlingDuration: Double {
    // A hair inside the tolerance, so that rounding cannot put the end just outside it.
    let tolerance = Self.settlingTolerance * (1 - 1e-9)
    var high = 1.0 / naturalFrequency
    while envelope(at: high) > tolerance && high < 1e9 { high *= 2 }
    var low = 0.0
    for _ in 0..<60 {
      let middle = (low + high) / 2
      if envelope(at: middle) > tolerance { low = middle } else { high = middle }
    }
    return high
  }

  /// The constants, for logs.
  public var description: String {
    "Spring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), "
      + "initialVelocity: \(initialVelocity))"
  }

  private func displacement(at t: Double) -> Double {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    let u0 = -1.0
    let v0 = initialVelocity
    let decay = exp(-zeta * w0 * t)
    if abs(zeta - 1) < 1e-9 {
      return exp(-w0 * t) * (u0 + (v0 + w0 * u0) * t)
    } else if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      return decay * (u0 * cos(wd * t) + (v0 + zeta * w0 * u0) / wd * sin(wd * t))
    } else {
      let s = w0 * (zeta * zeta - 1).squareRoot()
      // cosh and sinh overflow long before the product does; combine the exponents instead.
      let fast = exp((s - zeta * w0) * t)
      let slow = exp((-s - zeta * w0) * t)
      let b = (v0 + zeta * w0 * u0) / s
      return (u0 * (fast + slow) + b * (fast - slow)) / 2
    }
  }

  private func envelope(at t: Double) -> Double {
    let w0 = naturalFrequency
    let zeta = dampingRatio
    let v0 = initialVelocity
    if abs(zeta - 1) < 1e-9 {
      return exp(-w0 * t) * (1 + abs(v0 - w0) * t)
    } else if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      let b = (v0 - zeta * w0) / wd
      return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
    } else {
      let s = w0 * (zeta * zeta - 1).squareRoot()
      let b = abs((v0 - zeta * w0) / s)
      return (1 + b) * exp((s - zeta * w0) * t)
    }
  }

  private static func stiffness(response: Double, mass: Double) -> Double {
    let frequency = 2 * Double.pi / response
    return frequency * frequency * mass
  }
}
