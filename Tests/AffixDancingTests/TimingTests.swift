import AffixDancing
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

struct CubicBezierTests {
  static let curves: [CubicBezier] = [
    .easeInOut, .easeIn, .easeOut, .linear, .ease,
    CubicBezier(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55),  // overshoots both ways
    CubicBezier(x1: 0, y1: 1.8, x2: 1, y2: -0.8),
    CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1),  // flat slope in the middle
    CubicBezier(x1: 0.1, y1: 0.9, x2: 0.2, y2: 1),
  ]

  /// De Casteljau's construction: an evaluation independent of the solver's polynomial form.
  static func casteljau(_ curve: CubicBezier, _ t: Double) -> (x: Double, y: Double) {
    func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
    func point(_ p1: Double, _ p2: Double) -> Double {
      let (a, b, c) = (lerp(0, p1), lerp(p1, p2), lerp(p2, 1))
      let (d, e) = (lerp(a, b), lerp(b, c))
      return lerp(d, e)
    }
    return (point(curve.x1, curve.x2), point(curve.y1, curve.y2))
  }

  @Test(arguments: curves)
  func solvedValuesLieOnTheCurveWithin1e5(curve: CubicBezier) {
    for step in 0...1000 {
      let (x, y) = Self.casteljau(curve, Double(step) / 1000)
      #expect(abs(curve.value(at: x) - y) < 1e-5, "\(curve) at x = \(x)")
    }
  }

  /// A frame's solve starts where the last one ended. Wherever that was (a small step back or
  /// on, a jump across the curve, a flat spot that ended in bisection), the value is the one a
  /// fresh solve finds, to the last bits.
  @Test(arguments: curves)
  func solvesFromTheLastFrameAgreeWithFreshOnes(curve: CubicBezier) {
    var cursor = CubicBezier.Cursor(time: 0)
    var time = 0.0
    for step in 0..<2_000 {
      switch step % 4 {
      // Jumps spread over the whole curve (the golden ratio's multiples, modulo 1).
      case 0: time = (Double(step) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
      case 1: time = min(1, time + 1.0 / 600)
      case 2: time = max(0, time - 1.0 / 60)
      default: time = min(1, time + 1.0 / 60)
      }
      let warm = curve.value(at: time, cursor: &cursor)
      #expect(abs(warm - curve.value(at: time)) < 1e-12, "\(curve) at \(time)")
    }
  }

  @Test(arguments: curves)
  func endsAreExactAndTimeIsClamped(curve: CubicBezier) {
    #expect(curve.value(at: 0) == 0)
    #expect(curve.value(at: 1) == 1)
    #expect(curve.value(at: -3) == 0)
    #expect(curve.value(at: 7) == 1)
    #expect(curve.value(at: .nan) == 0)
  }

  @Test func presetsMatchUIKit() {
    #expect(TimingCurve.easeInOut.bezier == CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
    #expect(TimingCurve.easeIn.bezier == CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1))
    #expect(TimingCurve.easeOut.bezier == CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1))
    #expect(abs(TimingCurve.linear.bezier.value(at: 0.37) - 0.37) < 1e-12)
  }

  @Test(arguments: stride(from: 0.0, through: 1.0, by: 0.05).map { $0 })
  func easeInOutIsSymmetric(time: Double) {
    let curve = CubicBezier.easeInOut
    #expect(abs(curve.value(at: time) + curve.value(at: 1 - time) - 1) < 1e-5)
  }

  @Test func controlPointXIsClampedAndNonFiniteFallsBack() {
    #expect(!CubicBezier.isValid(x1: -0.2, y1: 0, x2: 1.3, y2: 1))
    #expect(CubicBezier.isValid(x1: 0.2, y1: -4, x2: 0.3, y2: 5))
    let clamped = CubicBezier(x1: -0.2, y1: 0, x2: 1.3, y2: 1)
    #expect(clamped.x1 == 0 && clamped.x2 == 1)
    let fallback = CubicBezier(x1: .nan, y1: .infinity, x2: 0.5, y2: .nan)
    #expect(fallback.x1 == 0 && fallback.y1 == 0 && fallback.y2 == 1)
  }
}

struct SpringTests {
  /// The damped oscillator's closed forms with u = x - 1, u0 = -1, written out directly.
  static func closedForm(
    mass m: Double, stiffness k: Double, damping c: Double, v0: Double, t: Double
  )
    -> Double
  {
    let w0 = (k / m).squareRoot()
    let zeta = c / (2 * (k * m).squareRoot())
    let u0 = -1.0
    let u: Double
    if zeta < 1 {
      let wd = w0 * (1 - zeta * zeta).squareRoot()
      u = exp(-zeta * w0 * t) * (u0 * cos(wd * t) + (v0 + zeta * w0 * u0) / wd * sin(wd * t))
    } else if zeta == 1 {
      u = exp(-w0 * t) * (u0 + (v0 + w0 * u0) * t)
    } else {
      let s = w0 * (zeta * zeta - 1).squareRoot()
      u = exp(-zeta * w0 * t) * (u0 * cosh(s * t) + (v0 + zeta * w0 * u0) / s * sinh(s * t))
    }
    return 1 + u
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let mass: Double
    let stiffness: Double
    let damping: Double
    let velocity: Double
    var testDescription: String { "m \(mass) k \(stiffness) c \(damping) v0 \(velocity)" }
  }

  static let cases: [Case] = [
    Case(mass: 1, stiffness: 100, damping: 4, velocity: 0),  // underdamped, zeta 0.2
    Case(mass: 2, stiffness: 50, damping: 20, velocity: 3),  // critical
    Case(mass: 1, stiffness: 100, damping: 40, velocity: -2),  // overdamped, zeta 2
    Case(mass: 0.5, stiffness: 300, damping: 1, velocity: 10),  // barely damped
  ]

  @Test(arguments: cases)
  func followsTheClosedForm(spring: Case) {
    let subject = DampedSpring(
      mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
      initialVelocity: spring.velocity)
    for step in 0...300 {
      let t = Double(step) / 100
      let expected = Self.closedForm(
        mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
        v0: spring.velocity, t: t)
      #expect(abs(subject.value(at: t) - expected) < 1e-9, "t = \(t)")
    }
  }

  @Test(arguments: cases)
  func satisfiesTheEquationOfMotion(spring: Case) {
    let subject = DampedSpring(
      mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
      initialVelocity: spring.velocity)
    let h = 1e-4
    for t in stride(from: 0.05, through: 2, by: 0.05) {
      let (before, now, after) = (
        subject.value(at: t - h), subject.value(at: t), subject.value(at: t + h)
      )
      let acceleration = (after - 2 * now + before) / (h * h)
      let velocity = (after - before) / (2 * h)
      let residual =
        spring.mass * acceleration + spring.damping * velocity + spring.stiffness * (now - 1)
      #expect(abs(residual) < 1e-3 * spring.stiffness, "t = \(t)")
    }
    let startVelocity = (subject.value(at: h) - subject.value(at: 0)) / h
    #expect(abs(startVelocity - spring.velocity) < 0.05 + abs(spring.velocity) * 0.01)
  }

  @Test(arguments: cases)
  func staysSettledAfterItsSettlingDuration(spring: Case) {
    let subject = DampedSpring(
      mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
      initialVelocity: spring.velocity)
    let settling = subject.settlingDuration
    #expect(settling.isFinite && settling > 0)
    for step in 0...400 {
      let t = settling * (1 + Double(step) / 100)
      #expect(abs(subject.value(at: t) - 1) <= DampedSpring.settlingTolerance)
    }
  }

  @Test(arguments: [(0.5, 1.0), (0.3, 0.6), (1.2, 1.5)])
  func responseAndDampingRatioMapToStiffnessAndDamping(response: Double, ratio: Double) {
    let spring = DampedSpring(response: response, dampingRatio: ratio)
    let stiffness: Double = pow(2 * .pi / response, 2)
    #expect(abs(spring.stiffness - stiffness) < 1e-9 * stiffness)
    #expect(abs(spring.damping - 4 * .pi * ratio / response) < 1e-9)
    #expect(abs(spring.dampingRatio - ratio) < 1e-9)
  }

  @Test func unusableConstantsAreReplacedNotTrapped() {
    let spring = DampedSpring(mass: -1, stiffness: .infinity, damping: -5, initialVelocity: .nan)
    #expect(spring.mass == 1 && spring.stiffness > 0 && spring.initialVelocity == 0)
    #expect(spring.dampingRatio >= DampedSpring.minimumDampingRatio - 1e-12)
    #expect(spring.settlingDuration.isFinite)
  }
}

struct TimingParametersTests {
  @Test(arguments: TimingCurve.allCases)
  func curvesStretchOverTheDuration(curve: TimingCurve) {
    let timing = TimingParameters.curve(curve)
    #expect(timing.duration(forRequested: 2) == 2)
    for step in 0...20 {
      let fraction = Double(step) / 20
      #expect(
        abs(timing.value(at: 2 * fraction, duration: 2) - curve.bezier.value(at: fraction))
          < 1e-12)
    }
  }

  @Test(arguments: [0.2, 0.5, 1.0, 2.0])
  func dampingRatioSpringsSettleWithinTheDuration(ratio: Double) {
    let timing = TimingParameters.spring(dampingRatio: ratio)
    #expect(timing.duration(forRequested: 1.5) == 1.5)
    #expect(timing.value(at: 0, duration: 1.5) == 0)
    #expect(timing.value(at: 1.5, duration: 1.5) == 1)
    #expect(abs(timing.value(at: 1.49, duration: 1.5) - 1) <= 1.5e-3)
    if ratio < 1 {
      let peak =
        stride(from: 0.0, through: 1.5, by: 0.001).map {
          timing.value(at: $0, duration: 1.5)
        }.max() ?? 0
      #expect(peak > 1)
    }
  }

  @Test func dampingRatioSpringsWithVelocityStillSettleInTime() {
    let timing = TimingParameters.spring(dampingRatio: 0.6, initialVelocity: 5)
    #expect(abs(timing.value(at: 0.999, duration: 1) - 1) <= 1.5e-3)
    #expect(timing.value(at: 0.01, duration: 1) > 0.04)
  }

  @Test func physicalSpringsLastTheirSettlingTime() {
    let spring = DampedSpring(mass: 1, stiffness: 200, damping: 10)
    let timing = TimingParameters.spring(spring)
    #expect(timing.duration(forRequested: 0.1) == spring.settlingDuration)
    #expect(abs(timing.value(at: 0.2, duration: 0.1) - spring.value(at: 0.2)) < 1e-12)
  }

  @Test func customControlPointsBecomeABezier() {
    let timing = TimingParameters.bezier(
      controlPoint1: CGPoint(x: 0.25, y: 0.1), controlPoint2: CGPoint(x: 0.25, y: 1))
    #expect(timing == .bezier(.ease))
  }
}

@MainActor struct SwiftUISpringTests {
  /// SwiftUI's documentation: `Spring(duration: 0.5, bounce: 0.3)` has mass 1, stiffness 157.9
  /// and damping 17.6.
  @Test func durationAndBounceMatchSwiftUIsPublishedExample() {
    let spring = DampedSpring(duration: 0.5, bounce: 0.3)
    #expect(spring.mass == 1)
    #expect(abs(spring.stiffness - 157.9) < 0.05)
    #expect(abs(spring.damping - 17.6) < 0.05)
    #expect(abs(spring.dampingRatio - 0.7) < 1e-12)
  }

  @Test(arguments: [(0.25, 0.0, 1.0), (0.5, 0.5, 0.5), (1.0, -0.5, 2.0), (0.4, 1.0, 0.01)])
  func bounceMapsToTheDampingRatio(duration: Double, bounce: Double, ratio: Double) {
    let spring = DampedSpring(duration: duration, bounce: bounce)
    #expect(abs(spring.dampingRatio - ratio) < 1e-12)
    #expect(abs(spring.naturalFrequency - 2 * .pi / duration) < 1e-9)
  }

  @Test func presetsAreSwiftUIs() {
    #expect(DampedSpring.smooth == DampedSpring(duration: 0.5, bounce: 0))
    #expect(DampedSpring.snappy == DampedSpring(duration: 0.5, bounce: 0.15))
    #expect(DampedSpring.bouncy == DampedSpring(duration: 0.5, bounce: 0.3))
    #expect(
      DampedSpring.bouncy(duration: 0.3, extraBounce: 0.1)
        == DampedSpring(duration: 0.3, bounce: 0.4))
    #expect(DampedSpring.snappy(extraBounce: -0.15) == .smooth)
    // Perceptual duration: a critically damped 0.5 s spring is well on its way by 0.5 s.
    #expect(DampedSpring.smooth.value(at: 0.5) > 0.98)
    #expect(DampedSpring.bouncy.value(at: 0.3) > 1)
  }

  @Test(arguments: [Double.nan, .infinity, -1, 0])
  func unusableDurationsAndBouncesFallBackToTheDefault(value: Double) {
    #expect(DampedSpring(duration: value, bounce: 0) == .smooth)
    if !value.isFinite { #expect(DampedSpring(duration: 0.5, bounce: value) == .smooth) }
    // A bounce of -1 would need infinite damping: it is held at -0.99.
    #expect(DampedSpring(duration: 0.5, bounce: -5) == DampedSpring(duration: 0.5, bounce: -0.99))
  }

  @Test func unitVelocityDividesByTheDistanceAndGuardsNonsense() {
    #expect(DampedSpring.unitVelocity(pointsPerSecond: 1200, distance: 300) == 4)
    #expect(DampedSpring.unitVelocity(pointsPerSecond: -600, distance: 300) == -2)
    #expect(DampedSpring.unitVelocity(pointsPerSecond: 600, distance: 0) == 0)
    #expect(DampedSpring.unitVelocity(pointsPerSecond: 600, distance: .nan) == 0)
    #expect(DampedSpring.unitVelocity(pointsPerSecond: .infinity, distance: 10) == 0)
    // A finite fling whose quotient overflows is the fastest start there is, not none.
    #expect(
      DampedSpring.unitVelocity(pointsPerSecond: 1e300, distance: -1e-300)
        == -DampedSpring.maximumInitialVelocity)
    #expect(DampedSpring.snappy.withInitialVelocity(4).initialVelocity == 4)
    #expect(DampedSpring.snappy.withInitialVelocity(4).stiffness == DampedSpring.snappy.stiffness)
  }

  @Test func animateTakesASpringAndLastsItsSettlingTime() {
    let frames = VirtualFrames()
    let clock = frames.clock
    let source = frames.source
    let box = Box()
    Dance.of(box, frames: source).animate(spring: .snappy) { $0.x = 100 }.start()
    let settling = DampedSpring.snappy.settlingDuration
    clock.advance(by: .milliseconds(Int(settling * 1000) - 20))
    #expect(Dance.of(box).hasAnimation)
    #expect(abs(box.x - 100) < 0.5)
    clock.advance(by: .milliseconds(40))
    #expect(!Dance.of(box).hasAnimation && box.x == 100)
  }
}
