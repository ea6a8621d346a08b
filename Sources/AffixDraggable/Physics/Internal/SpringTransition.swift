import AffixMotion
import AffixScheduling
import Foundation

/// The exact solution of the damped oscillator over one time step, as a 2×2 matrix acting on
/// (displacement, velocity).
///
/// Stepping with the exact transition instead of a numerical integrator keeps the body on the
/// closed-form trajectory at every step, whatever the step and the stiffness: it is stable for
/// any spring, and costs four multiplications per axis. With `φ1`, `φ2` the solutions starting
/// at (1, 0) and (0, 1), the matrix is `[[φ1, φ2], [-ω²φ2, φ1 - 2ζωφ2]]`.
struct SpringTransition: Sendable, Hashable {
  var uu: Double
  var uv: Double
  var vu: Double
  var vv: Double

  static let identity = SpringTransition(uu: 1, uv: 0, vu: 0, vv: 1)

  init(uu: Double, uv: Double, vu: Double, vv: Double) {
    self.uu = uu
    self.uv = uv
    self.vu = vu
    self.vv = vv
  }

  /// The transition over `dt` seconds for `spring`.
  init(spring: DampedSpring, dt: Double) {
    let omega = spring.naturalFrequency
    let zeta = spring.dampingRatio
    let (phi1, phi2) = Self.basis(omega: omega, zeta: zeta, t: dt)
    self.init(uu: phi1, uv: phi2, vu: -omega * omega * phi2, vv: phi1 - 2 * zeta * omega * phi2)
  }

  /// The two basis solutions at time `t`: `φ1` from (1, 0), `φ2` from (0, 1).
  static func basis(omega: Double, zeta: Double, t: Double) -> (Double, Double) {
    // Within this distance of 1 the under- and over-damped forms lose digits to cancellation
    // while the critical form is exact to rounding.
    let criticalBand = 1e-6
    if abs(zeta - 1) <= criticalBand {
      let decay = exp(-omega * t)
      return (decay * (1 + omega * t), t * decay)
    }
    if zeta < 1 {
      let damped = omega * (1 - zeta * zeta).squareRoot()
      let decay = exp(-zeta * omega * t)
      let (sine, cosine) = (sin(damped * t), cos(damped * t))
      return (decay * (cosine + zeta * omega / damped * sine), decay * sine / damped)
    }
    let spread = omega * (zeta * zeta - 1).squareRoot()
    let fast = -zeta * omega - spread
    let slow = -zeta * omega + spread
    let (eFast, eSlow) = (exp(fast * t), exp(slow * t))
    return ((slow * eFast - fast * eSlow) / (slow - fast), (eSlow - eFast) / (slow - fast))
  }
}
