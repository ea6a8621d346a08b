import Affix
import AffixMotion
import AffixTestSupport
import Foundation
import Testing

@Suite struct DampedSpringTests {
  @Test("duration and bounce give SwiftUI's documented constants")
  func durationAndBounce() {
    let spring = DampedSpring(duration: 0.5, bounce: 0.3)
    #expect(abs(spring.stiffness - 157.91) < 0.01)
    #expect(abs(spring.damping - 17.59) < 0.01)
    #expect(abs(spring.dampingRatio - 0.7) < 1e-12)
  }

  @Test("response and damping ratio are SwiftUI's Spring(response:dampingRatio:)")
  func responseAndDampingRatio() {
    let spring = DampedSpring(response: 0.4, dampingRatio: 0.6)
    let omega = 2 * Double.pi / 0.4
    #expect(spring.mass == 1)
    #expect(abs(spring.stiffness - omega * omega) < 1e-9)
    #expect(abs(spring.damping - 4 * .pi * 0.6 / 0.4) < 1e-9)
    #expect(abs(spring.dampingRatio - 0.6) < 1e-12)
  }

  @Test("A bounce of 0 is critical whichever way the spring is spelled")
  func spellingsAgree() {
    let byDuration = DampedSpring(duration: 0.3, bounce: 0)
    let byResponse = DampedSpring(response: 0.3, dampingRatio: 1)
    #expect(abs(byDuration.stiffness - byResponse.stiffness) < 1e-9)
    #expect(abs(byDuration.damping - byResponse.damping) < 1e-9)
  }

  @Test("UIKit Dynamics' frequency in hertz is one conversion, and reads back")
  func frequencyConversion() {
    let spring = DampedSpring(frequency: 2, dampingRatio: 0.4)
    #expect(abs(spring.naturalFrequency - 4 * .pi) < 1e-12)
    #expect(abs(spring.frequency - 2) < 1e-12)
    #expect(abs(spring.dampingRatio - 0.4) < 1e-12)
  }

  @Test("The presets are SwiftUI's")
  func presets() {
    #expect(DampedSpring.smooth == DampedSpring(duration: 0.5, bounce: 0))
    #expect(DampedSpring.snappy == DampedSpring(duration: 0.5, bounce: 0.15))
    #expect(DampedSpring.bouncy == DampedSpring(duration: 0.5, bounce: 0.3))
    #expect(
      DampedSpring.bouncy(duration: 0.4, extraBounce: 0.1) == .init(duration: 0.4, bounce: 0.4))
  }

  @Test(
    "Constants no spring can have are reported once and replaced by usable ones",
    arguments: [
      { _ = DampedSpring(duration: .nan, bounce: 0) },
      { _ = DampedSpring(duration: 0.5, bounce: .infinity) },
      { _ = DampedSpring(response: -1, dampingRatio: 1) },
      { _ = DampedSpring(response: 0.5, dampingRatio: -0.2) },
      { _ = DampedSpring(frequency: 0, dampingRatio: 1) },
      { _ = DampedSpring(frequency: 2, dampingRatio: .nan) },
      { _ = DampedSpring(mass: -1, stiffness: 100, damping: 10) },
      { _ = DampedSpring(stiffness: .infinity, damping: 10) },
      { _ = DampedSpring(stiffness: 100, damping: 10, initialVelocity: .nan) },
    ] as [@Sendable () -> Void])
  func badConstantsAreReported(make: @Sendable () -> Void) {
    let seen = DiagnosticLog.capture(make).all
    #expect(seen.count == 1)
    #expect(seen.first?.subsystem == "motion")
  }

  @Test("Replaced constants still make a spring that settles")
  func replacedConstantsSettle() {
    var spring = DampedSpring.bouncy
    let seen = DiagnosticLog.capture { spring = DampedSpring(duration: -3, bounce: .nan) }.all
    #expect(seen.count == 1)
    #expect(spring == DampedSpring(duration: 0.5, bounce: 0))
    #expect(spring.settlingDuration.isFinite)
  }

  @Test("Usable constants report nothing")
  func usableConstantsAreQuiet() {
    let seen = DiagnosticLog.capture {
      _ = DampedSpring.snappy
      _ = DampedSpring(frequency: 3, dampingRatio: DampedSpring.minimumDampingRatio)
      _ = DampedSpring(stiffness: 100, damping: 0.2)
    }.all
    #expect(seen.isEmpty)
  }

  @Test("A unit of velocity carries the spring as the derivative of its motion")
  func impulseResponse() {
    let spring = DampedSpring(duration: 0.4, bounce: 0.2)
    let moving = spring.withInitialVelocity(3)
    for time in [0.05, 0.1, 0.3] {
      let difference = moving.value(at: time) - spring.value(at: time)
      #expect(abs(difference - 3 * spring.impulseResponse(at: time)) < 1e-9)
    }
  }
}
