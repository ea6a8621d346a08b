import AffixMotion
import AffixScheduling
import Foundation
import Testing

@testable import AffixDraggable

/// The damped-oscillator closed forms, written out independently of the library.
private func closedForm(u0: Double, v0: Double, frequency: Double, zeta: Double, t: Double)
  -> Double
{
  let w0 = 2 * Double.pi * frequency
  if zeta < 1 {
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    return exp(-zeta * w0 * t) * (u0 * cos(wd * t) + (v0 + zeta * w0 * u0) / wd * sin(wd * t))
  }
  if zeta == 1 {
    return exp(-w0 * t) * (u0 + (v0 + w0 * u0) * t)
  }
  let s = w0 * (zeta * zeta - 1).squareRoot()
  return exp(-zeta * w0 * t) * (u0 * cosh(s * t) + (v0 + zeta * w0 * u0) / s * sinh(s * t))
}

struct SpringCase: Sendable, CustomTestStringConvertible {
  var zeta: Double
  var frequency: Double
  var stepsPerSecond: Int
  var testDescription: String { "ζ \(zeta), \(frequency) Hz, 1/\(stepsPerSecond) s steps" }
}

/// Under-, critically and over-damped springs, at a fine and a coarse step.
private let springCases: [SpringCase] = [
  SpringCase(zeta: 0.2, frequency: 2, stepsPerSecond: 120),
  SpringCase(zeta: 0.55, frequency: 3, stepsPerSecond: 120),
  SpringCase(zeta: 1, frequency: 2, stepsPerSecond: 120),
  SpringCase(zeta: 2.5, frequency: 1.5, stepsPerSecond: 120),
  SpringCase(zeta: 0.2, frequency: 8, stepsPerSecond: 30),
  SpringCase(zeta: 1, frequency: 8, stepsPerSecond: 30),
  SpringCase(zeta: 4, frequency: 8, stepsPerSecond: 30),
]

/// The stated tolerance: the exact per-step solution stays on the closed form to within a
/// millionth of a point over two seconds for displacements of 100 points and flings of
/// 800 points per second; only rounding separates them.
private let tolerance = 1e-6

@Test("Springs follow the damped-oscillator closed forms", arguments: springCases)
func springFollowsClosedForm(_ spring: SpringCase) {
  let world = DynamicsWorld(
    frames: nil, timeStep: .seconds(1) / spring.stepsPerSecond,
    restThreshold: RestThreshold(distance: 0, speed: 0))
  let (u0x, v0x, u0y, v0y) = (100.0, 0.0, -40.0, 800.0)
  let body = world.makeBody(at: CGPoint(x: u0x, y: u0y))
  body.velocity = CGPoint(x: v0x, y: v0y)
  body.attach(
    SpringAttachment(
      anchor: .zero,
      spring: DampedSpring(frequency: spring.frequency, dampingRatio: spring.zeta)))
  let dt = world.timeStep / .seconds(1)
  var worst = 0.0
  for step in 1...(2 * spring.stepsPerSecond) {
    world.advance(by: world.timeStep)
    let t = Double(step) * dt
    let expectedX = closedForm(
      u0: u0x, v0: v0x, frequency: spring.frequency, zeta: spring.zeta, t: t)
    let expectedY = closedForm(
      u0: u0y, v0: v0y, frequency: spring.frequency, zeta: spring.zeta, t: t)
    worst = max(worst, abs(Double(body.position.x) - expectedX))
    worst = max(worst, abs(Double(body.position.y) - expectedY))
  }
  #expect(worst <= tolerance, "largest deviation \(worst) points")
}

@Test("The transition carries velocity as the derivative of the closed form")
func transitionVelocityMatchesDerivative() {
  let spring = DampedSpring(frequency: 2, dampingRatio: 0.3)
  let dt = 0.01
  let step = SpringTransition(spring: spring, dt: dt)
  // Central difference of the closed form around t = dt, from (u0, v0) = (1, 0).
  let h = 1e-6
  let derivative =
    (closedForm(u0: 1, v0: 0, frequency: 2, zeta: 0.3, t: dt + h)
      - closedForm(u0: 1, v0: 0, frequency: 2, zeta: 0.3, t: dt - h)) / (2 * h)
  #expect(abs(step.vu - derivative) < 1e-5)
  #expect(abs(step.uu - closedForm(u0: 1, v0: 0, frequency: 2, zeta: 0.3, t: dt)) < 1e-12)
  #expect(abs(step.uv - closedForm(u0: 0, v0: 1, frequency: 2, zeta: 0.3, t: dt)) < 1e-12)
}

@Test(
  "Damping ratios just off critical agree with the critical form", arguments: [1 - 1e-7, 1 + 1e-7])
func nearCriticalIsContinuous(_ zeta: Double) {
  let near = SpringTransition(
    spring: DampedSpring(frequency: 3, dampingRatio: zeta), dt: 1.0 / 120)
  let critical = SpringTransition(
    spring: DampedSpring(frequency: 3, dampingRatio: 1), dt: 1.0 / 120)
  #expect(abs(near.uu - critical.uu) < 1e-6)
  #expect(abs(near.uv - critical.uv) < 1e-6)
  #expect(abs(near.vu - critical.vu) < 1e-4)
  #expect(abs(near.vv - critical.vv) < 1e-6)
}

@Test("Snap damping maps to a damping ratio of 0.1 + 0.9 × damping", arguments: [0.0, 0.5, 1.0])
func snapDampingMapping(_ damping: Double) {
  let spring = Snap(to: .zero, spring: .snap(damping: damping)).spring
  #expect(abs(spring.dampingRatio - (0.1 + 0.9 * damping)) < 1e-12)
  #expect(spring.frequency == 2.0)
}

@Test(
  "A snap moves the body along the curve the same spring gives a Dancing animation",
  arguments: [
    DampedSpring.smooth, .snappy, .bouncy, DampedSpring(response: 0.3, dampingRatio: 0.4),
  ]
)
func snapFollowsTheSharedSpring(spring: DampedSpring) {
  let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
  let body = world.makeBody(at: .zero)
  body.snap(Snap(to: CGPoint(x: 100, y: 0), spring: spring))
  let dt = world.timeStep / .seconds(1)
  var worst = 0.0
  for step in 1...240 {
    world.advance(by: world.timeStep)
    let expected = 100 * spring.value(at: Double(step) * dt)
    worst = max(worst, abs(Double(body.position.x) - expected))
  }
  #expect(worst < 1e-6, "largest deviation \(worst) points")
}

@MainActor @Suite("The spring a controller snaps with")
struct SnapSpringTests {
  @Test("makeDraggable(snap:) takes any DampedSpring and reads it back")
  func makeDraggableTakesTheSharedSpring() {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 10, y: 10))
    let controller = card.makeDraggable(snap: .snappy, world: virtual.world)
    #expect(controller.snap == .snappy)
    controller.snap = .bouncy
    #expect(controller.snap == .bouncy)
    #expect(DampedSpring.snap() == DampedSpring(frequency: 2, dampingRatio: 0.55))
  }
}
