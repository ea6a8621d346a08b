import AffixDancing
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// Every test sets the switch for its own task only, with `ReducedMotion.$override`: tests run
/// in parallel, and the process-wide switch would reach them all.
@MainActor struct ReducedMotionTests {
  @Test func withReducedMotionAnAnimationAndItsChainEndAtOnceWithCompletionsInOrder() {
    let stage = ClockedBox(framesPerSecond: 100)
    let events = Recording<String>()
    ReducedMotion.$override.withValue(true) {
      stage.dance.animate(duration: 1) { $0.x = 100 }
        .addCompletion { events.append("first \($0) at x = \(stage.box.x)") }
        .then(duration: 2) { $0.y = 50 }
        .addCompletion { events.append("second \($0) at y = \(stage.box.y)") }
        .start()
      // The first frame shows the end and completes; the chained animation starts there, and
      // its own first frame ends it.
      stage.scheduler.advance(by: .milliseconds(10))
      #expect(events.values == ["first end at x = 100.0"] && stage.box.y == 0)
      stage.scheduler.advance(by: .milliseconds(10))
    }
    #expect(events.values == ["first end at x = 100.0", "second end at y = 50.0"])
    #expect(stage.box.x == 100 && stage.box.y == 50)
    #expect(!stage.dance.hasAnimation && stage.clock.subscriberCount == 0)
  }

  @Test func withoutItTheSameAnimationMoves() {
    let stage = ClockedBox(framesPerSecond: 100)
    let events = Recording<AnimatingPosition>()
    ReducedMotion.$override.withValue(false) {
      stage.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
        .addCompletion { events.append($0) }
        .start()
    }
    #expect(stage.box.x == 0 && events.values.isEmpty)
    stage.scheduler.advance(by: .milliseconds(500))
    #expect(abs(stage.box.x - 50) < 1e-9)
    stage.scheduler.advance(by: .milliseconds(500))
    #expect(stage.box.x == 100 && events.values == [.end])
  }

  @Test func theChoiceIsMadeWhenTheAnimationStarts() {
    let stage = ClockedBox(framesPerSecond: 100)
    // Declared with motion, started without: it jumps.
    let dance = ReducedMotion.$override.withValue(false) {
      stage.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
    }
    ReducedMotion.$override.withValue(true) { dance.start() }
    stage.scheduler.advance(by: .milliseconds(10))
    #expect(stage.box.x == 100 && !dance.hasAnimation)
    // Started with motion: it keeps moving when the switch turns on.
    let moving = ReducedMotion.$override.withValue(false) {
      dance.animate(duration: 1, curve: .linear) { $0.x = 0 }.start()
    }
    ReducedMotion.$override.withValue(true) {
      stage.scheduler.advance(by: .milliseconds(500))
    }
    #expect(abs(stage.box.x - 50) < 1e-9 && moving.isRunning && stage.dance.isRunning)
  }

  @Test func aStartDelayIsKeptAndTheEndComesWhenItIsOver() {
    let stage = ClockedBox(framesPerSecond: 100)
    ReducedMotion.$override.withValue(true) {
      stage.dance.animate(duration: 1) { $0.x = 100 }.start(after: 0.5)
    }
    stage.scheduler.advance(by: .milliseconds(490))
    #expect(stage.box.x == 0 && stage.dance.hasAnimation)
    stage.scheduler.advance(by: .milliseconds(10))
    #expect(stage.box.x == 100 && !stage.dance.hasAnimation)
  }

  @Test func anAnimationRepeatingForeverHoldsStillAtItsEndAndStopsTheClock() {
    let stage = ClockedBox(framesPerSecond: 100)
    ReducedMotion.$override.withValue(true) {
      stage.dance.animate(duration: 1) { $0.x = 100 }.repeatingForever().start()
    }
    stage.scheduler.advance(by: .milliseconds(10))
    #expect(stage.box.x == 100)
    #expect(stage.dance.state == .active && !stage.dance.isRunning)
    #expect(stage.clock.subscriberCount == 0)
  }

  @Test func aDecayAndASpringReachTheirRestingValuesOnTheFirstFrame() async {
    let stage = ClockedBox(framesPerSecond: 100)
    ReducedMotion.$override.withValue(true) {
      stage.dance.decay(\.x, velocity: 1000, rate: .fast).start()
    }
    stage.scheduler.advance(by: .milliseconds(10))
    #expect(stage.box.x == Decay(velocity: 1000, rate: .fast).projectedDistance)
    let dance = ReducedMotion.$override.withValue(true) {
      stage.dance.animate(spring: .bouncy) { $0.y = -20 }.start()
    }
    let positionWait = dance.ending
    async let position = positionWait()
    #expect(await eventually { dance.dancer.waiterCount > 0 })
    stage.scheduler.advance(by: .milliseconds(10))
    #expect(await position == .end)
    #expect(stage.box.y == -20)
  }
}
