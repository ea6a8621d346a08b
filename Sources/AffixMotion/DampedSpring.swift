import Affix
import Foundation

/// A damped spring, the one spring of every Affix motion: a Dancing animation's timing, a
/// Draggable snap's pull and a drag attachment's give.
///
/// It is spelled as SwiftUI's `Spring` is
/// (``init(duration:bounce:initialVelocity:fileID:line:)``,
/// ``init(response:dampingRatio:initialVelocity:fileID:line:)``,
/// ``init(mass:stiffness:damping:initialVelocity:fileID:line:)`` and the presets ``smooth``,
/// ``snappy`` and ``bouncy``), under a name of its own, so that an app that also imports SwiftUI
/// names both without ambiguity. UIKit Dynamics spells a spring as a frequency in hertz and a
/// damping ratio: ``init(frequency:dampingRatio:fileID:line:)`` is that one conversion.
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
/// positive, a negative or non-finite damping, a non-finite bounce or velocity) are replaced as
/// each initializer says, and reported through `Diagnostics` with the subsystem `motion` and
/// the caller's line. So are finite constants whose motion no `Double` can follow: a natural
/// frequency outside ``naturalFrequencyRange``, a damping ratio above ``maximumDampingRatio``
/// or an initial velocity beyond ``maximumInitialVelocity`` is brought to the nearest bound.
/// Within them every value, velocity and settling time of the spring is finite.
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

  /// The natural frequencies a spring can have, in radians per second: a period from about
  /// 6 nanoseconds to about 73 days. Beyond them a step's phase or decay no longer fits a
  /// `Double` (a stiffness of 1e300 on a mass of 1e-300 is a frequency of 1e300), and no screen
  /// could show the difference from the bound anyway.
  public static let naturalFrequencyRange: ClosedRange<Double> = 1e-6...1e9

  /// The largest damping ratio a spring gets: a million times critical, a creep so slow that
  /// more damping shows no difference, and within which the motion stays finite.
  public static let maximumDampingRatio = 1e6

  /// The largest initial velocity, either way, in fractions of the distance per second: the
  /// whole distance a trillion times a second.
  public static let maximumInitialVelocity = 1e12

  /// The time after which every spring within the bounds has come to rest to the last bit of
  /// a `Double`: later times are evaluated at it, so that no product overflows.
  static let restingTime = 1e15

  /// Creates a spring from its physical constants.
  ///
  /// Unusable constants are replaced and reported: a mass or stiffness that is not finite and
  /// positive becomes 1 or that of a 0.5 s response, a non-finite damping becomes critical, a
  /// negative one ``minimumDampingRatio`` of critical, a non-finite velocity becomes 0 and one
  /// beyond ``maximumInitialVelocity`` that bound. Constants whose natural frequency
  /// (`sqrt(k / m)`) leaves ``naturalFrequencyRange``, or whose damping ratio passes
  /// ``maximumDampingRatio``, make a spring of mass 1 at the nearest bound, reported too. A
  /// damping from 0 to ``minimumDampingRatio`` of critical is raised to it, so that every
  /// motion comes to rest, and reported. Every report names the replacement and the
  /// ``settlingDuration`` of the spring made instead.
  ///
  /// - Parameters:
  ///   - mass: The moving mass, greater than 0.
  ///   - stiffness: The spring constant k, greater than 0.
  ///   - damping: The damping coefficient c, 0 or more.
  ///   - initialVelocity: In fractions of the distance per second.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public init(
    mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0,
    fileID: String = #fileID, line: Int = #line
  ) {
    self.init(
      checkingMass: mass, stiffness: stiffness, damping: damping,
      initialVelocity: initialVelocity, problems: [], replacements: [], fileID: fileID,
      line: line)
  }

  /// The designated initializer's checks, reporting `problems` (found by a converting
  /// initializer, with their `replacements`) and its own in one report, which ends with the
  /// settling duration of the spring made.
  private init(
    checkingMass mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
    problems: [String], replacements: [String], fileID: String, line: Int
  ) {
    var problems = problems
    var replacements = replacements
    if !(mass.isFinite && mass > 0) {
      problems.append("a mass of \(mass)")
      replacements.append("a mass of 1")
    }
    if !(stiffness.isFinite && stiffness > 0) {
      problems.append("a stiffness of \(stiffness)")
      replacements.append("a 0.5 s response's stiffness")
    }
    if !damping.isFinite {
      problems.append("a damping of \(damping)")
      replacements.append("critical damping")
    } else if damping < 0 {
      problems.append("a negative damping of \(damping), which would add energy")
      replacements.append("\(Self.minimumDampingRatio) of critical damping")
    }
    var velocity = initialVelocity.isFinite ? initialVelocity : 0
    if !initialVelocity.isFinite || abs(initialVelocity) > Self.maximumInitialVelocity {
      if initialVelocity.isFinite {
        velocity = initialVelocity < 0 ? -Self.maximumInitialVelocity : Self.maximumInitialVelocity
      }
      problems.append("an initial velocity of \(initialVelocity)")
      replacements.append("an initial velocity of \(velocity)")
    }
    var mass = mass.isFinite && mass > 0 ? mass : 1
    var stiffness =
      stiffness.isFinite && stiffness > 0 ? stiffness : Self.stiffness(response: 0.5, mass: mass)
    // Square roots first: `k * m` overflows for constants of 1e300, their roots do not.
    var critical = 2 * stiffness.squareRoot() * mass.squareRoot()
    let frequency = stiffness.squareRoot() / mass.squareRoot()
    let ratio = damping.isFinite ? damping / critical : 1
    let frequencies = Self.naturalFrequencyRange
    if !(critical.isFinite && critical > 0 && frequencies.contains(frequency)
      && ratio <= Self.maximumDampingRatio)
    {
      // Constants whose motion no Double can follow: the spring of mass 1 nearest to them.
      let usableFrequency =
        frequency.isNaN ? 1 : min(max(frequency, frequencies.lowerBound), frequencies.upperBound)
      let usableRatio = ratio.isNaN ? 1 : min(ratio, Self.maximumDampingRatio)
      if usableFrequency != frequency {
        problems.append("a natural frequency of \(frequency) rad/s")
        replacements.append("\(usableFrequency) rad/s")
      }
      if usableRatio != ratio {
        problems.append("a damping ratio of \(ratio)")
        replacements.append("a ratio of \(usableRatio)")
      } else if damping >= 0 && usableRatio < Self.minimumDampingRatio {
        problems.append("a damping ratio of \(ratio), which never comes to rest")
        replacements.append("a ratio of \(Self.minimumDampingRatio)")
      }
      mass = 1
      stiffness = usableFrequency * usableFrequency
      critical = 2 * usableFrequency
      self.damping = max(usableRatio, Self.minimumDampingRatio) * critical
    } else {
      let floor = critical * Self.minimumDampingRatio
      if damping.isFinite && damping >= 0 && damping < floor {
        // Raised so that the motion comes to rest; said, since with extreme constants a small
        // damping becomes a large one (1 on a mass and stiffness of 1e300 becomes 2e298).
        problems.append("a damping of \(damping) (a ratio of \(ratio)), which never comes to rest")
        replacements.append("\(Self.minimumDampingRatio) of critical damping (\(floor))")
      }
      self.damping = max(damping.isFinite ? damping : critical, floor)
    }
    self.mass = mass
    self.stiffness = stiffness
    self.initialVelocity = velocity
    Self.report(
      problems, using: replacements, settling: problems.isEmpty ? 0 : settlingDuration,
      fileID: fileID, line: line)
  }

  /// Creates a spring as SwiftUI's `Spring(response:dampingRatio:)` does.
  ///
  /// The response is the period of the undamped spring, in seconds; with mass 1,
  /// `stiffness = (2 pi / response)^2` and `damping = 4 pi dampingRatio / response`.
  ///
  /// - Parameters:
  ///   - response: The period of the undamped spring, in seconds; one that is not finite and
  ///     positive is reported and replaced by 0.5, one whose frequency leaves
  ///     ``naturalFrequencyRange`` is reported and brought to the nearest bound.
  ///   - dampingRatio: 1 is critical, below 1 overshoots, above 1 creeps; one that is not
  ///     finite or is negative is reported and replaced by 1.
  ///   - initialVelocity: In fractions of the distance per second.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public init(
    response: Double, dampingRatio: Double, initialVelocity: Double = 0,
    fileID: String = #fileID, line: Int = #line
  ) {
    var problems: [String] = []
    var replacements: [String] = []
    if !(response.isFinite && response > 0) {
      problems.append("a response of \(response) s")
      replacements.append("0.5 s")
    }
    if !(dampingRatio.isFinite && dampingRatio >= 0) {
      problems.append("a damping ratio of \(dampingRatio)")
      replacements.append("a ratio of 1")
    }
    let response = Self.usablePeriod(
      response.isFinite && response > 0 ? response : 0.5, named: "response",
      problems: &problems, replacements: &replacements)
    let ratio = dampingRatio.isFinite && dampingRatio >= 0 ? dampingRatio : 1
    self.init(
      checkingMass: 1, stiffness: Self.stiffness(response: response, mass: 1),
      damping: 4 * .pi * ratio / response, initialVelocity: initialVelocity,
      problems: problems, replacements: replacements, fileID: fileID, line: line)
  }

  /// Creates a spring as UIKit Dynamics spells one, from a frequency and a damping ratio.
  ///
  /// These are `UIAttachmentBehavior`'s `frequency` (the natural frequency, in hertz) and
  /// `damping`, with mass 1: `stiffness = (2 pi frequency)^2` and
  /// `damping = 2 dampingRatio (2 pi frequency)`.
  ///
  /// ```swift
  /// let attachment = DampedSpring(frequency: 2, dampingRatio: 0.4)  // two swings a second
  /// attachment.naturalFrequency  // 12.57 rad/s
  /// ```
  ///
  /// - Parameters:
  ///   - frequency: The undamped natural frequency, in hertz; one that is not finite and
  ///     positive is reported and replaced by 1, one beyond ``naturalFrequencyRange`` (in
  ///     radians per second) is reported and brought to the nearest bound.
  ///   - dampingRatio: 1 is critical, below 1 overshoots, above 1 creeps; one that is not
  ///     finite or is negative is reported and replaced by 1.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public init(
    frequency: Double, dampingRatio: Double, fileID: String = #fileID, line: Int = #line
  ) {
    var problems: [String] = []
    var replacements: [String] = []
    if !(frequency.isFinite && frequency > 0) {
      problems.append("a frequency of \(frequency) Hz")
      replacements.append("1 Hz")
    }
    if !(dampingRatio.isFinite && dampingRatio >= 0) {
      problems.append("a damping ratio of \(dampingRatio)")
      replacements.append("a ratio of 1")
    }
    let hertz = frequency.isFinite && frequency > 0 ? frequency : 1
    let omega =
      2 * Double.pi
      / Self.usablePeriod(
        1 / hertz, named: "period", problems: &problems, replacements: &replacements)
    let ratio = dampingRatio.isFinite && dampingRatio >= 0 ? dampingRatio : 1
    self.init(
      checkingMass: 1, stiffness: omega * omega, damping: 2 * ratio * omega, initialVelocity: 0,
      problems: problems, replacements: replacements, fileID: fileID, line: line)
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
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public init(
    duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0,
    fileID: String = #fileID, line: Int = #line
  ) {
    var problems: [String] = []
    var replacements: [String] = []
    if !(duration.isFinite && duration > 0) {
      problems.append("a duration of \(duration) s")
      replacements.append("0.5 s")
    }
    if !bounce.isFinite {
      problems.append("a bounce of \(bounce)")
      replacements.append("no bounce")
    }
    let duration = Self.usablePeriod(
      duration.isFinite && duration > 0 ? duration : 0.5, named: "duration",
      problems: &problems, replacements: &replacements)
    let bounce = bounce.isFinite ? min(max(bounce, -0.99), 1) : 0
    let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let stiffness = Self.stiffness(response: duration, mass: 1)
    self.init(
      checkingMass: 1, stiffness: stiffness, damping: 2 * ratio * stiffness.squareRoot(),
      initialVelocity: initialVelocity, problems: problems, replacements: replacements,
      fileID: fileID, line: line)
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

  /// Converts a velocity per second into a spring's unit-space initial velocity.
  ///
  /// The velocity is in points, or any unit of the property; in unit space 1 covers the whole
  /// distance in one second: `v / distance`.
  ///
  /// This is how a drag hands its fling to a spring: the release velocity, divided by the
  /// distance the spring has to cover, so that the body leaves at the speed it was thrown.
  /// A `distance` of 0 or not finite (nothing to cover), or a velocity that is not finite,
  /// gives 0; a result beyond ``maximumInitialVelocity`` (overflowing, even) is held at it.
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
    // A fling over a vanishing distance, even one whose quotient overflows: the fastest start
    // a spring takes.
    return min(max(velocity, -maximumInitialVelocity), maximumInitialVelocity)
  }

  /// `zeta = c / (2 sqrt(k m))`: below 1 it overshoots, 1 is critical, above 1 it creeps.
  public var dampingRatio: Double { damping / (2 * stiffness.squareRoot() * mass.squareRoot()) }

  /// `w0 = sqrt(k / m)`, in radians per second.
  public var naturalFrequency: Double { stiffness.squareRoot() / mass.squareRoot() }

  /// The natural frequency in hertz, `w0 / 2 pi`: UIKit Dynamics' `frequency`.
  public var frequency: Double { naturalFrequency / (2 * .pi) }

  /// The animation's progress `time` seconds after it started: 0 at the start, 1 at rest;
  /// an underdamped spring passes 1 and comes back.
  public func value(at time: Double) -> Double {
    guard time > 0 else { return 0 }
    return 1 + displacement(at: min(time, Self.restingTime))
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
}
