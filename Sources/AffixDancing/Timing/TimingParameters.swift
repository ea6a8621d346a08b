public import AffixMotion
import AffixScheduling
public import Foundation

/// How an animation's progress follows time: a Bezier curve or a spring.
///
/// Bezier curves and damping-ratio springs stretch over the duration the animation is given; a
/// spring from physical constants (``spring(_:)``) runs on its own clock and lasts its
/// `DampedSpring.settlingDuration`, as `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`
/// does in UIKit.
///
/// ```swift
/// let timing = TimingParameters.curve(.easeInOut)
/// timing.value(at: 0.5, duration: 1)  // 0.5
/// TimingParameters.spring(dampingRatio: 0.5).value(at: 0.3, duration: 1)
/// ```
public struct TimingParameters: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable, Hashable {
    case bezier(CubicBezier)
    case spring(DampedSpring)
    case fittedSpring(dampingRatio: Double, initialVelocity: Double)
    case decay(DecelerationRate)
  }

  let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// One of UIKit's four standard curves.
  public static func curve(_ curve: TimingCurve) -> TimingParameters {
    TimingParameters(.bezier(curve.bezier))
  }

  /// A custom Bezier curve.
  public static func bezier(_ bezier: CubicBezier) -> TimingParameters {
    TimingParameters(.bezier(bezier))
  }

  /// A custom Bezier curve from its control points (x clamped to `0...1`).
  public static func bezier(controlPoint1: CGPoint, controlPoint2: CGPoint) -> TimingParameters {
    .bezier(
      CubicBezier(
        x1: Double(controlPoint1.x), y1: Double(controlPoint1.y),
        x2: Double(controlPoint2.x), y2: Double(controlPoint2.y)))
  }

  /// A spring from physical constants; the animation lasts as long as the spring takes to
  /// settle, whatever duration it was given.
  public static func spring(_ spring: DampedSpring) -> TimingParameters {
    TimingParameters(.spring(spring))
  }

  /// A spring with the given damping ratio, stiff enough to settle within the animation's
  /// duration.
  ///
  /// Below a ratio of 1 it bounces. It is like `UISpringTimingParameters(dampingRatio:)`.
  ///
  /// - Parameters:
  ///   - dampingRatio: 1 is critical damping; it is raised to at least
  ///     `DampedSpring.minimumDampingRatio`.
  ///   - initialVelocity: In fractions of the distance per second.
  /// - Returns: The timing parameters of that spring.
  public static func spring(dampingRatio: Double, initialVelocity: Double = 0) -> TimingParameters {
    let ratio = dampingRatio.isFinite ? max(dampingRatio, DampedSpring.minimumDampingRatio) : 1
    return TimingParameters(
      .fittedSpring(
        dampingRatio: ratio, initialVelocity: initialVelocity.isFinite ? initialVelocity : 0))
  }

  /// A momentum decay at `rate`, cut at the animation's duration: progress
  /// `1 - r^(1000 t)`, where 1 is the resting value (see ``Decay``). `Dance.decay` makes these.
  static func decay(_ rate: DecelerationRate) -> TimingParameters {
    TimingParameters(.decay(rate))
  }

  /// How long an animation with these timing parameters lasts when it is asked to last
  /// `duration` seconds: `duration` itself, except for a physical spring.
  public func duration(forRequested duration: Double) -> Double {
    resolved(duration: duration).duration
  }

  /// The progress (0 at the start, 1 at the end; springs and some curves pass beyond)
  /// `time` seconds into an animation asked to last `duration` seconds.
  public func value(at time: Double, duration: Double) -> Double {
    let timing = resolved(duration: duration)
    return timing.progress(at: timing.duration > 0 ? time / timing.duration : 1)
  }

  /// What the timing is, for logs.
  public var description: String {
    switch kind {
    case .bezier(let bezier): "TimingParameters.bezier(\(bezier))"
    case .spring(let spring): "TimingParameters.spring(\(spring))"
    case .fittedSpring(let ratio, let velocity):
      "TimingParameters.spring(dampingRatio: \(ratio), initialVelocity: \(velocity))"
    case .decay(let rate): "TimingParameters.decay(\(rate))"
    }
  }

  func resolved(duration requested: Double) -> ResolvedTiming {
    let requested = requested.isFinite ? max(requested, 0) : 0
    switch kind {
    case .bezier(let bezier):
      return ResolvedTiming(
        duration: requested, curve: bezier == .linear ? .linear : .bezier(bezier))
    case .spring(let spring):
      return ResolvedTiming(duration: spring.settlingDuration, curve: .spring(spring))
    case .fittedSpring(let ratio, let velocity):
      guard requested > 0 else { return ResolvedTiming(duration: 0, curve: .linear) }
      return ResolvedTiming(
        duration: requested,
        curve: .spring(Self.spring(dampingRatio: ratio, velocity: velocity, settling: requested)))
    case .decay(let rate):
      return ResolvedTiming(duration: requested, curve: .decay(exponent: Decay.exponent(rate)))
    }
  }

  /// The spring of this damping ratio whose settling time is `settling` seconds.
  private static func spring(dampingRatio ratio: Double, velocity: Double, settling: Double)
    -> DampedSpring
  {
    // Without a velocity the motion scales exactly with 1 / w0.
    let unit = DampedSpring(dampingRatio: ratio, naturalFrequency: 1).settlingDuration
    var frequency = unit / settling
    if velocity != 0 {
      var low = frequency / 1000
      var high = frequency * 1000
      for _ in 0..<60 {
        frequency = (low * high).squareRoot()
        let spring = DampedSpring(
          dampingRatio: ratio, naturalFrequency: frequency, initialVelocity: velocity)
        if spring.settlingDuration > settling { low = frequency } else { high = frequency }
      }
      frequency = high
    }
    return DampedSpring(dampingRatio: ratio, naturalFrequency: frequency, initialVelocity: velocity)
  }
}

/// Timing parameters bound to a duration: maps the fraction of time elapsed to progress.
struct ResolvedTiming: Sendable {
  enum Curve: Sendable {
    case linear
    case bezier(CubicBezier)
    case spring(DampedSpring)
    /// Progress `1 - e^(exponent t)`, `exponent = 1000 ln r`.
    case decay(exponent: Double)
  }

  let duration: Double
  let curve: Curve

  static let linear = ResolvedTiming(duration: 0, curve: .linear)

  var isLinear: Bool {
    if case .linear = curve { return true }
    return false
  }

  /// Whether a property already moving can keep its velocity into an animation of this
  /// timing: a spring that states no initial velocity of its own.
  var carriesVelocity: Bool {
    if case .spring(let spring) = curve { return spring.initialVelocity == 0 && duration > 0 }
    return false
  }

  /// Exactly 0 at or before the start and exactly 1 at or after the end, so that an animation
  /// always lands on its target values.
  @inline(__always)
  func progress(at fraction: Double) -> Double {
    if fraction >= 1 { return 1 }
    if !(fraction > 0) { return 0 }
    switch curve {
    case .linear: return fraction
    case .bezier(let bezier): return bezier.value(at: fraction)
    case .spring(let spring): return spring.value(at: fraction * duration)
    case .decay(let exponent): return -expm1(exponent * fraction * duration)
    }
  }

  /// ``progress(at:)``, with a Bezier curve solved from `cursor` and leaving it where the
  /// solve ended; for an animation's frames, which move along the curve a little at a time.
  @inline(__always)
  func progress(at fraction: Double, cursor: inout CubicBezier.Cursor) -> Double {
    if fraction >= 1 { return 1 }
    if !(fraction > 0) { return 0 }
    switch curve {
    case .linear: return fraction
    case .bezier(let bezier): return bezier.value(at: fraction, cursor: &cursor)
    case .spring(let spring): return spring.value(at: fraction * duration)
    case .decay(let exponent): return -expm1(exponent * fraction * duration)
    }
  }
}
