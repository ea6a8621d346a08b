import Affix
import Foundation

/// A damped spring, the one spring of every Affix motion: a Dancing animation's timing, a
/// Draggable snap's pull and a drag attachment's give.
///
/// It is spelled as SwiftUI's `Spring` is (``init(duration:bounce:initialVelocity:)``,
/// ``init(response:dampingRatio:initialVelocity:)``,
/// ``init(mass:stiffness:damping:initialVelocity:)`` and the presets ``smooth``, ``snappy`` and
/// ``bouncy``), under a name of its own, so that an app that also imports SwiftUI names both
/// without ambiguity. UIKit Dynamics spells a spring as a frequency in hertz and a damping
/// ratio: ``init(frequency:dampingRatio:)`` is that one conversion.
///
/// As a timing curve it carries a motion from 0 to 1: `m x'' + c x' + k (x - 1) = 0`, along
/// the closed forms of the damped oscillator. With `u = x - 1`, `u(0) = -1`, `u'(0) = v0`,
/// natural frequency `w0 = sqrt(k / m)` and damping ratio `zeta = c / (2 sqrt(k m))`:
/// - `zeta < 1`: `u = e^(-zeta w0 t) [u0 cos(wd t) + (v0 + zeta w0 u0) / wd sin(wd t)]`,
///   with `wd = w0 sqrt(1 - zeta^2)`;
/// - `zeta = 1`: `u = e^(-w0 t) [u0 + (v0 + w0 u0) t]`;
/// - `zeta > 1`: `u = e^(-zeta w0 t) [u0 cosh(s t) + (v0 + zeta w0 u0) / s sinh(s t)]`,
///   with `s = w0 sqrt(zeta^2 - 1)`.
///
/// The initial velocity is in unit space: 1 covers the whole distance in one second.
///
/// ```swift
/// let bouncy = DampedSpring(duration: 0.5, bounce: 0.3)
/// bouncy.value(at: 0.25)       // past halfway, heading for an overshoot
/// bouncy.settlingDuration      // when it stays within 0.001 of the end
/// ```
///
/// Constants no spring can have (a mass, stiffness or duration that is not finite and
/// positive, a non-finite damping, bounce or velocity) are replaced as each initializer says,
/// and reported through `Diagnostics` with the subsystem `motion`.
public struct DampedSpring: Sendable, Hashable, CustomStringConvertible {
  /// The moving mass, greater than 0.
  public let mass: Double
  /// The spring constant k, greater than 0.
  public let stiffness: Double
  /// The damping coefficient c; at least ``minimumDampingRatio`` of critical damping.
  public let damping: Double
  /// The velocity at time 0, in fractions of the distance per second.
  public let initialVelocity: Double

  /// The smallest damping ratio a spring gets, so that every motion comes to rest.
  public static let minimumDampingRatio = 0.01

  /// How close to the end a spring must stay to count as settled.
  public static let settlingTolerance = 0.001

  /// Creates a spring from its physical constants.
  ///
  /// Unusable constants are replaced and reported: a mass or stiffness that is not finite and
  /// positive becomes 1 or that of a 0.5 s response, a non-finite damping becomes critical,
  /// a non-finite velocity becomes 0. A damping below ``minimumDampingRatio`` of critical is
  /// raised to it without a report, so that every motion comes to rest.
  ///
  /// - Parameters:
  ///   - mass: The moving mass, greater than 0.
  ///   - stiffness: The spring constant k, greater than 0.
  ///   - damping: The damping coefficient c.
  ///   - initialVelocity: In fractions of the distance per second.
  public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
    var problems: [String] = []
    if !(mass.isFinite && mass > 0) { problems.append("a mass of \(mass)") }
    if !(stiffness.isFinite && stiffness > 0) { problems.append("a stiffness of \(stiffness)") }
    if !damping.isFinite { problems.append("a damping of \(damping)") }
    if !initialVelocity.isFinite { problems.append("an initial velocity of \(initialVelocity)") }
    Self.report(problems, using: "a mass of 1, a 0.5 s response's stiffness, critical damping or 0")
    let mass = mass.isFinite && mass > 0 ? mass : 1
    let stiffness =
      stiffness.isFinite && stiffness > 0 ? stiffness : Self.stiffness(response: 0.5, mass: mass)
    let critical = 2 * (stiffness * mass).squareRoot()
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping.isFinite ? max(damping, critical * Self.minimumDampingRatio) : critical
    self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
  }

  /// Creates a spring as SwiftUI's `Spring(response:dampingRatio:)` does: from its response
  /// (the period of the undamped spring, in seconds) and its damping ratio, with mass 1:
  /// `stiffness = (2 pi / response)^2`, `damping = 4 pi dampingRatio / response`.
  ///
  /// - Parameters:
  ///   - response: The period of the undamped spring, in seconds; one that is not finite and
  ///     positive is reported and replaced by 0.5.
  ///   - dampingRatio: 1 is critical, below 1 overshoots, above 1 creeps; one that is not
  ///     finite or is negative is reported and replaced by 1.
  ///   - initialVelocity: In fractions of the distance per second.
  public init(response: Double, dampingRatio: Double, initialVelocity: Double = 0) {
    var problems: [String] = []
    if !(response.isFinite && response > 0) { problems.append("a response of \(response) s") }
    if !(dampingRatio.isFinite && dampingRatio >= 0) {
      problems.append("a damping ratio of \(dampingRatio)")
    }
    Self.report(problems, using: "0.5 s or a ratio of 1")
    let response = response.isFinite && response > 0 ? response : 0.5
    let ratio = dampingRatio.isFinite && dampingRatio >= 0 ? dampingRatio : 1
    self.init(
      mass: 1, stiffness: Self.stiffness(response: response, mass: 1),
      damping: 4 * .pi * ratio / response, initialVelocity: initialVelocity)
  }

  /// Creates a spring as UIKit Dynamics spells one (`UIAttachmentBehavior`'s `frequency` and
  /// `damping`): its natural frequency in hertz and its damping ratio, with mass 1,
  /// `stiffness = (2 pi frequency)^2` and `damping = 2 dampingRatio (2 pi frequency)`.
  ///
  /// ```swift
  /// let attachment = DampedSpring(frequency: 2, dampingRatio: 0.4)  // two swings a second
  /// attachment.naturalFrequency  // 12.57 rad/s
  /// ```
  ///
  /// - Parameters:
  ///   - frequency: The undamped natural frequency, in hertz; one that is not finite and
  ///     positive is reported and replaced by 1.
  ///   - dampingRatio: 1 is critical, below 1 overshoots, above 1 creeps; one that is not
  ///     finite or is negative is reported and replaced by 1.
  public init(frequency: Double, dampingRatio: Double) {
    var problems: [String] = []
    if !(frequency.isFinite && frequency > 0) { problems.append("a frequency of \(frequency) Hz") }
    if !(dampingRatio.isFinite && dampingRatio >= 0) {
      problems.append("a damping ratio of \(dampingRatio)")
    }
    Self.report(problems, using: "1 Hz or a ratio of 1")
    let omega = 2 * Double.pi * (frequency.isFinite && frequency > 0 ? frequency : 1)
    let ratio = dampingRatio.isFinite && dampingRatio >= 0 ? dampingRatio : 1
    self.init(mass: 1, stiffness: omega * omega, damping: 2 * ratio * omega)
  }

  /// Creates a spring as SwiftUI's `Spring(duration:bounce:)` does: from its perceptual
  /// duration and how much it bounces.
  ///
  /// With mass 1, `stiffness = (2 pi / duration)^2` and `damping = 2 zeta sqrt(stiffness)`,
  /// where the damping ratio `zeta` is `1 - bounce` for a bounce of 0 or more and
  /// `1 / (1 + bounce)` below 0:
  ///
  /// ```swift
  /// let spring = DampedSpring(duration: 0.5, bounce: 0.3)
  /// (spring.stiffness, spring.damping)  // (157.9, 17.6), as SwiftUI's documentation gives
  /// ```
  ///
  /// - Parameters:
  ///   - duration: The pace of the spring in seconds, about the time it takes to settle (for a
  ///     very bouncy spring, the period of its oscillation). Not finite or not above 0:
  ///     reported, and 0.5.
  ///   - bounce: 0 for none (critical damping), up to 1 for an undamped oscillation (held at
  ///     ``minimumDampingRatio``), down to -1 for ever more overdamped motion. Clamped to
  ///     `-0.99...1`; not finite: reported, and 0.
  ///   - initialVelocity: In fractions of the distance per second; see
  ///     ``unitVelocity(pointsPerSecond:distance:)``.
  public init(duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0) {
    var problems: [String] = []
    if !(duration.isFinite && duration > 0) { problems.append("a duration of \(duration) s") }
    if !bounce.isFinite { problems.append("a bounce of \(bounce)") }
    Self.report(problems, using: "0.5 s or no bounce")
    let duration = duration.isFinite && duration > 0 ? duration : 0.5
    let bounce = bounce.isFinite ? min(max(bounce, -0.99), 1) : 0
    let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let stiffness = Self.stiffness(response: duration, mass: 1)
    self.init(
      mass: 1, stiffness: stiffness, damping: 2 * ratio * stiffness.squareRoot(),
      initialVelocity: initialVelocity)
  }

  /// SwiftUI's `.smooth`: duration 0.5, no bounce (critically damped).
  public static let smooth = DampedSpring(duration: 0.5, bounce: 0)
  /// SwiftUI's `.snappy`: duration 0.5, bounce 0.15.
  public static let snappy = DampedSpring(duration: 0.5, bounce: 0.15)
  /// SwiftUI's `.bouncy`: duration 0.5, bounce 0.3.
  public static let bouncy = DampedSpring(duration: 0.5, bounce: 0.3)

  /// SwiftUI's `.smooth(duration:extraBounce:)`: bounce 0 plus `extraBounce`.
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
    DampedSpring(duration: duration, bounce: extraBounce)
  }

  /// SwiftUI's `.snappy(duration:extraBounce:)`: bounce 0.15 plus `extraBounce`.
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
    DampedSpring(duration: duration, bounce: 0.15 + extraBounce)
  }

  /// SwiftUI's `.bouncy(duration:extraBounce:)`: bounce 0.3 plus `extraBounce`.
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> DampedSpring {
    DampedSpring(duration: duration, bounce: 0.3 + extraBounce)
  }

  /// This spring with another initial velocity, in fractions of the distance per second.
  ///
  /// ```swift
  /// let thrown = DampedSpring.snappy.withInitialVelocity(
  ///   DampedSpring.unitVelocity(pointsPerSecond: 1200, distance: 300))  // 4
  /// ```
  public func withInitialVelocity(_ velocity: Double) -> DampedSpring {
    DampedSpring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
  }

  /// Converts a velocity in points (or any unit of the property) per second into a spring's
  /// unit-space initial velocity, where 1 covers the whole distance in one second: `v / distance`.
  ///
  /// This is how a drag hands its fling to a spring: the release velocity, divided by the
  /// distance the spring has to cover, so that the body leaves at the speed it was thrown.
  /// A `distance` of 0 or not finite (nothing to cover), or a velocity that is not finite,
  /// gives 0.
  ///
  /// ```swift
  /// let velocity = DampedSpring.unitVelocity(pointsPerSecond: 1200, distance: 300)  // 4
  /// card.dance.animate(spring: .snappy.withInitialVelocity(velocity)) { $0.x = 300 }.start()
  /// ```
  ///
  /// - Parameters:
  ///   - pointsPerSecond: The velocity along the line of the motion, signed the same way as
  ///     `distance`.
  ///   - distance: Target minus start, in the same unit.
  public static func unitVelocity(pointsPerSecond: Double, distance: Double) -> Double {
    guard distance.isFinite, distance != 0, pointsPerSecond.isFinite else { return 0 }
    let velocity = pointsPerSecond / distance
    return velocity.isFinite ? velocity : 0
  }

  /// `zeta = c / (2 sqrt(k m))`: below 1 it overshoots, 1 is critical, above 1 it creeps.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// `w0 = sqrt(k / m)`, in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// The natural frequency in hertz, `w0 / 2 pi`: UIKit Dynamics' `frequency`.
  public var frequency: Double { naturalFrequency / (2 * .pi) }

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
    "DampedSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping), "
      + "initialVelocity: \(initialVelocity))"
  }

  /// The velocity of the progress `time` seconds after the start, in fractions of the distance
  /// per second: ``initialVelocity`` at 0, towards 0 as the spring settles.
  public func velocity(at time: Double) -> Double {
    guard time > 0 else { return initialVelocity }
    // The derivative of the motion is a motion of the same spring: one that starts at rest,
    // displaced by the spring's initial acceleration, from where the first starts moving.
    let acceleration = (stiffness - damping * initialVelocity) / mass
    return displacement(at: time, from: initialVelocity, velocity: acceleration)
  }

  /// How far the spring carries a unit of velocity `time` seconds after it started at rest at
  /// its target: the response `h` with `h(0) = 0` and `h'(0) = 1`. A motion that starts with
  /// a velocity `V` of its own is the motion without it plus `V h(t)`.
  ///
  /// A Dancing animation that takes over a moving property adds this response, scaled by the
  /// property's velocity, so that the property keeps its speed.
  public func impulseResponse(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    return displacement(at: time, from: 0, velocity: 1)
  }

  private func displacement(at t: Double) -> Double {
    displacement(at: t, from: -1, velocity: initialVelocity)
  }

  /// The displacement from the rest point at `t` of a motion that starts at `u0` with
  /// velocity `v0`.
  private func displacement(at t: Double, from u0: Double, velocity v0: Double) -> Double {
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

  private static func report(_ problems: [String], using replacements: String) {
    guard !problems.isEmpty else { return }
    Diagnostics.report(
      subsystem: "motion",
      message: "A spring cannot have " + problems.joined(separator: " or ") + "; using "
        + replacements
        + " instead.")
  }

  private static func stiffness(response: Double, mass: Double) -> Double {
    let frequency = 2 * Double.pi / response
    return frequency * frequency * mass
  }
}
