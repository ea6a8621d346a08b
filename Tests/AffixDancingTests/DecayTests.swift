import Affix
import AffixDancing
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// Every frame of a clock at 1000 frames a second falls on a whole millisecond, where the
/// decay's closed form is the stepped sum.
@MainActor struct DecayTests {
  @Test func theProjectionIsApplesFormula() {
    #expect(
      Decay(velocity: 1000, rate: .normal).projectedDistance == 1000.0 / 1000 * 0.998 / (1 - 0.998))
    #expect(abs(Decay(velocity: 1000, rate: .normal).projectedDistance - 499) < 1e-9)
    #expect(abs(Decay(velocity: -2000, rate: .fast).projectedDistance + 198) < 1e-9)
    #expect(Decay.projectedDistance(velocity: .nan) == 0)
    #expect(Decay(velocity: .infinity).velocity == 0)
    #expect(DecelerationRate.normal.rawValue == 0.998 && DecelerationRate.fast.rawValue == 0.99)
  }

  @Test(arguments: [1.0, 0, -0.5, .nan, .infinity])
  func aRateOutsideZeroToOneIsRefused(raw: Double) {
    #expect(DecelerationRate(rawValue: raw) == nil)
  }

  /// Each millisecond the velocity is multiplied by r and the value moves by it: the closed
  /// form is that sum at every whole millisecond.
  @Test(arguments: [DecelerationRate.normal, .fast])
  func theClosedFormIsTheSteppedSum(rate: DecelerationRate) {
    let decay = Decay(velocity: 1500, rate: rate)
    var velocity = 1500.0
    var position = 0.0
    for millisecond in 1...3000 {
      velocity *= rate.rawValue
      position += velocity / 1000
      let closed = decay.offset(at: Double(millisecond) / 1000)
      #expect(abs(closed - position) < 1e-9 * max(1, abs(position)), "at \(millisecond) ms")
    }
    #expect(
      abs(
        decay.velocity(at: 0.25) - (decay.offset(at: 0.250001) - decay.offset(at: 0.249999))
          / 0.000002) < 1e-3)
  }

  @Test func aDecayFollowsTheClosedFormOnTheClockAndRestsAtTheProjection() async {
    let stage = ClockedBox(framesPerSecond: 1000)
    stage.box.x = 20
    let decay = Decay(velocity: 1000, rate: .normal)
    let landing = 20 + decay.projectedDistance
    let ended = Recording<AnimatingPosition>()
    stage.dance.decay(\.x, velocity: 1000).addCompletion { ended.append($0) }.start()
    var elapsed = 0
    for millisecond in [1, 10, 250, 1000, 3000] {
      stage.advance(milliseconds: millisecond - elapsed)
      elapsed = millisecond
      let expected = 20 + decay.offset(at: Double(millisecond) / 1000)
      #expect(abs(stage.box.x - expected) < 1e-9, "at \(millisecond) ms")
    }
    // At rest within half a point: ln(0.5 / 499) / (1000 ln 0.998) = 3.4494 s, so the frame
    // at 3449 ms still moves and the one at 3450 ms lands.
    let rest = decay.restingTime()
    #expect(abs(rest - log(0.5 / 499) / (1000 * log(0.998))) < 1e-12)
    #expect(abs(rest - 3.4494) < 0.0001)
    stage.advance(milliseconds: 449)
    #expect(stage.dance.isRunning && ended.values.isEmpty)
    #expect(landing - stage.box.x > 0.5 && landing - stage.box.x < 0.51)
    stage.advance(milliseconds: 1)
    #expect(stage.box.x == landing)
    #expect(ended.values == [.end] && !stage.dance.hasAnimation)
    #expect(stage.clock.subscriberCount == 0)
  }

  @Test func aDecayHasTheSameStateMachineAsAnyAnimation() async {
    let stage = ClockedBox(framesPerSecond: 1000)
    let dance = stage.dance.decay(\.x, velocity: -800, rate: .fast)
    #expect(dance.state == .inactive && dance.hasAnimation && stage.box.x == 0)
    dance.start()
    stage.advance(milliseconds: 100)
    dance.pause()
    let paused = stage.box.x
    stage.advance(milliseconds: 100)
    #expect(stage.box.x == paused && dance.state == .active && !dance.isRunning)
    dance.reverse().start()
    stage.advance(milliseconds: 2000)
    #expect(stage.box.x == 0)
    let positions = Recording<AnimatingPosition>()
    let second = dance.decay(\.x, velocity: 500).addCompletion { positions.append($0) }.start()
    stage.advance(milliseconds: 50)
    second.stop()
    #expect(second.state == .stopped)
    second.finish(at: .end)
    #expect(positions.values == [.end])
    #expect(abs(stage.box.x - Decay(velocity: 500).projectedDistance) < 1e-9)
    stage.dance.decay(\.x, velocity: 300).start()
    let ending = stage.dance
    let positionWait = ending.ending
    async let position = positionWait()
    #expect(await eventually { ending.dancer.waiterCount > 0 })
    stage.advance(milliseconds: 5000)
    #expect(await position == .end)
  }

  @Test func aPointDecaysAlongAStraightLine() {
    let stage = ClockedBox(framesPerSecond: 1000)
    stage.box.center = CGPoint(x: 10, y: 10)
    stage.dance.decay(\.center, velocity: CGPoint(x: 600, y: -300)).start()
    stage.advance(milliseconds: 200)
    let offset = Decay(velocity: 600).offset(at: 0.2)
    #expect(abs(stage.box.center.x - (10 + offset)) < 1e-9)
    #expect(abs(stage.box.center.y - (10 - offset / 2)) < 1e-9)
    stage.advance(milliseconds: 5000)
    let distance = Decay(velocity: 600).projectedDistance
    #expect(stage.box.center == CGPoint(x: 10 + distance, y: 10 - distance / 2))
  }

  @Test func theRestingValueMovesWithTheStartReadWhenItStarts() {
    let stage = ClockedBox(framesPerSecond: 1000)
    let dance = stage.dance.decay(\.x, velocity: 100)
    stage.box.x = 50
    dance.start()
    stage.advance(milliseconds: 5000)
    #expect(abs(stage.box.x - (50 + Decay(velocity: 100).projectedDistance)) < 1e-9)
  }

  @Test func aNonFiniteVelocityIsReportedAndMovesNothing() {
    let stage = ClockedBox(framesPerSecond: 1000)
    stage.box.x = 3
    let reports = DiagnosticLog.capture { stage.dance.decay(\.x, velocity: .nan).start() }.messages
    #expect(reports.count == 1 && reports[0].contains("velocity nan is not finite"))
    stage.advance(milliseconds: 1)
    #expect(stage.box.x == 3 && !stage.dance.hasAnimation)
  }

  @Test func aSpringReplacingADecayKeepsItsVelocity() {
    let stage = ClockedBox(framesPerSecond: 1000)
    stage.dance.decay(\.x, velocity: 2000).start()
    stage.advance(milliseconds: 99)
    let before = [
      stage.box.x,
      {
        stage.advance(milliseconds: 1)
        return stage.box.x
      }(),
    ]
    stage.dance.animate(spring: .snappy) { $0.x = before[1] + 50 }.start()
    stage.advance(milliseconds: 1)
    let velocityBefore = (before[1] - before[0]) * 1000
    let velocityAfter = (stage.box.x - before[1]) * 1000
    // The spring's acceleration over the two frames is under w0^2 * 50 + 2 zeta w0 * 2000:
    // the two secants differ by at most two frames of it, about 100.
    let spring = DampedSpring.snappy
    let bound =
      2 * 0.001
      * (spring.naturalFrequency * spring.naturalFrequency * 55 + 2 * spring.dampingRatio
        * spring.naturalFrequency * velocityBefore * 1.1)
    #expect(velocityBefore > 1500)
    #expect(abs(velocityAfter - velocityBefore) < bound)
  }
}
