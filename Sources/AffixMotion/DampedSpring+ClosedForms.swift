import Foundation

/// The closed forms of the spring's motion: its velocity, impulse response and envelope.
extension DampedSpring {
  /// The velocity of the progress `time` seconds after the start, in fractions of the distance
  /// per second: ``initialVelocity`` at 0, towards 0 as the spring settles.
  public func velocity(at time: Double) -> Double {
    guard time > 0 else { return initialVelocity }
    // The derivative of the motion is a motion of the same spring: one that starts at rest,
    // displaced by the spring's initial acceleration, from where the first starts moving.
    // (`(k - c v0) / m`, written with the ratios, which stay finite where `c v0` may not.)
    let w0 = naturalFrequency
    let acceleration = w0 * w0 - 2 * dampingRatio * w0 * initialVelocity
    return displacement(
      at: min(time, Self.restingTime), from: initialVelocity, velocity: acceleration)
  }

  /// How far the spring carries a unit of velocity `time` seconds after it started at rest at
  /// its target: the response `h` with `h(0) = 0` and `h'(0) = 1`. A motion that starts with
  /// a velocity `V` of its own is the motion without it plus `V h(t)`.
  ///
  /// A Dancing animation that takes over a moving property adds this response, scaled by the
  /// property's velocity, so that the property keeps its speed.
  public func impulseResponse(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    return displacement(at: min(time, Self.restingTime), from: 0, velocity: 1)
  }

  func displacement(at t: Double) -> Double {
    displacement(at: t, from: -1, velocity: initialVelocity)
  }

  /// The displacement from the rest point at `t` of a motion that starts at `u0` with
  /// velocity `v0`.
  func displacement(at t: Double, from u0: Double, velocity v0: Double) -> Double {
    let w0 = naturalFrequency
    let zeta = dampingRatio
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

  func envelope(at t: Double) -> Double {
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
}
