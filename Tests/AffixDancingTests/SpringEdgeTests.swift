import Affix
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@testable import AffixDancing

/// Springs and decays at the edges of `Double`: what replaced them is reported, with when it
/// settles, and the animation is over by then.
@MainActor @Suite struct SpringEdgeTests {
  /// The seconds a report names after "within" or "after", the first such figure.
  private func reportedSeconds(_ message: String) -> Double? {
    for marker in ["settles within ", "rest after "] {
      guard let range = message.range(of: marker) else { continue }
      let figure = message[range.upperBound...].prefix { $0 != " " }
      return Double(figure)
    }
    return nil
  }

  @Test func aSpringWhoseHugeVelocityIsHeldEndsWithinTheDurationItsReportNames() throws {
    let stage = ClockedBox(framesPerSecond: 100)
    let log = DiagnosticLog()
    let dance = log.capture {
      stage.dance.animate(spring: DampedSpring.smooth.withInitialVelocity(1e308)) { $0.x = 10 }
    }
    let seconds = try #require(log.messages.first.flatMap(reportedSeconds))
    dance.start()
    stage.advance(milliseconds: Int((seconds * 1000).rounded(.up)) + 20)
    #expect(dance.state == .inactive)
    #expect(stage.box.x == 10)
  }

  @Test func aDecayOfAnExtremeVelocityIsHeldReportedAndRestsWhenItSays() throws {
    let stage = ClockedBox(framesPerSecond: 100)
    let rate = try #require(DecelerationRate(rawValue: 0.5))
    let log = DiagnosticLog()
    let line = #line + 1
    let dance = log.capture { stage.dance.decay(\.x, velocity: 1e306, rate: rate) }
    #expect(log.lines == [line])
    let seconds = try #require(log.messages.first.flatMap(reportedSeconds))
    dance.start()
    stage.advance(milliseconds: Int((seconds * 1000).rounded(.up)) + 20)
    #expect(dance.state == .inactive)
    #expect(stage.box.x == DecelerationRate.maximumProjection)
  }
}
