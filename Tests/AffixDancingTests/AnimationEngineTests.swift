import AffixTestSupport
import Foundation
import Testing

@testable import AffixDancing

/// An engine animating `box.x` from 0 to 100, with its effects applied as an owner would.
private struct Harness {
  let box = Box()
  let ended = Recording<AnimatingPosition>()
  var engine: AnimationEngine

  init(duration: Double = 1, timing: TimingParameters = .curve(.linear)) {
    engine = AnimationEngine(
      tracks: [AnimationTrack(\Box.x, from: 0, to: 100)], timing: timing, duration: duration)
    let ended = ended
    engine.addCompletion(AnimationCompletion { ended.append($0) })
  }

  func apply(_ effects: AnimationEffects) {
    effects.values?.apply(to: box)
    if case .completed(let position, let completions) = effects.outcome {
      for completion in completions { completion(position) }
    }
  }

  mutating func advance(to time: Double) {
    apply(engine.advance(to: time))
  }

  mutating func run(_ call: (inout AnimationEngine) throws(AnimatorMisuse) -> AnimationEffects)
    throws(AnimatorMisuse)
  {
    apply(try call(&engine))
  }

  var x: Double { box.x }
}

@MainActor struct AnimationStateTableTests {
  @Test func inactiveStartBecomesActiveAndRuns() throws {
    var h = Harness()
    #expect(h.engine.state == .inactive)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    #expect(h.engine.state == .active && h.engine.isRunning)
    h.advance(to: 0.25)
    #expect(h.x == 25 && h.engine.fractionComplete == 0.25)
  }

  @Test func inactivePauseBecomesActiveAndPaused() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.pause(at: 0) }
    #expect(h.engine.state == .active && !h.engine.isRunning)
    h.advance(to: 0.5)
    #expect(h.engine.fractionComplete == 0 && h.x == 0)
  }

  @Test func inactiveScrubBecomesActiveAndPausedAtThatFraction() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.setFractionComplete(0.3) }
    #expect(h.engine.state == .active && !h.engine.isRunning)
    #expect(h.x == 30)
  }

  @Test(arguments: [false, true])
  func reachingTheEndCompletesOnceAtTheEndOrStart(reversed: Bool) throws {
    var h = Harness()
    try h.engine.setReversed(reversed, at: 0).values.map { $0.apply(to: h.box) }
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 0.5)
    #expect(h.x == 50)
    h.advance(to: 1.2)
    h.advance(to: 2)
    #expect(h.engine.state == .inactive && !h.engine.isRunning)
    #expect(h.ended.values == [reversed ? .start : .end])
    #expect(h.x == (reversed ? 0 : 100))
  }

  @Test func stopWithoutFinishingIsInactiveWithoutCompletions() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    let effects = try h.engine.stop(withoutFinishing: true, at: 0.4)
    h.apply(effects)
    guard case .abandoned = effects.outcome else {
      Issue.record("expected the animation to be abandoned")
      return
    }
    #expect(h.engine.state == .inactive && h.x == 40)
    h.advance(to: 5)
    #expect(h.ended.values.isEmpty && h.x == 40)
  }

  @Test func stopFreezesValuesWhereTheyAre() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.stop(withoutFinishing: false, at: 0.6) }
    #expect(h.engine.state == .stopped && h.x == 60)
    h.advance(to: 0.9)
    #expect(h.x == 60 && h.ended.values.isEmpty)
  }

  @Test(arguments: [(AnimatingPosition.start, 0.0), (.current, 70.0), (.end, 100.0)])
  func finishingAStoppedAnimationCompletesAtThatPosition(
    position: AnimatingPosition, value: Double
  ) throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.stop(withoutFinishing: false, at: 0.7) }
    try h.run { engine throws(AnimatorMisuse) in try engine.finish(at: position) }
    #expect(h.engine.state == .inactive)
    #expect(h.ended.values == [position])
    #expect(abs(h.x - value) < 1e-9)
  }

  @Test func startingAStoppedAnimationIsIllegalAndChangesNothing() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.stop(withoutFinishing: false, at: 0.5) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.start(at: 0.6) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.pause(at: 0.6) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.setFractionComplete(0.2) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.setReversed(true, at: 0.6) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.stop(withoutFinishing: false, at: 0.6) }
    #expect(h.engine.state == .stopped && h.engine.fractionComplete == 0.5)
  }

  @Test func stoppingAnInactiveAnimationIsIllegal() {
    var h = Harness()
    #expect(throws: AnimatorMisuse.self) { try h.engine.stop(withoutFinishing: false, at: 0) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.stop(withoutFinishing: true, at: 0) }
    #expect(h.engine.state == .inactive)
  }

  @Test(arguments: [false, true])
  func finishingAnAnimationThatIsNotStoppedIsIllegal(started: Bool) throws {
    var h = Harness()
    if started { try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) } }
    #expect(throws: AnimatorMisuse.self) { try h.engine.finish(at: .end) }
    #expect(h.engine.state == (started ? .active : .inactive))
    #expect(h.ended.values.isEmpty)
  }
}

@MainActor struct AnimationEngineBehaviourTests {
  @Test func scrubbingARunningAnimationIsIllegal() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.setFractionComplete(0.5) }
    #expect(h.engine.isRunning)
  }

  @Test(arguments: [-0.1, 1.5, .nan, .infinity])
  func progressOutsideTheUnitIntervalIsRefused(fraction: Double) throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.pause(at: 0) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.setFractionComplete(fraction) }
    #expect(h.engine.fractionComplete == 0)
  }

  @Test(arguments: [-1.0, .nan, -.infinity, .infinity])
  func badDelaysAreRefused(delay: Double) {
    var h = Harness()
    #expect(throws: AnimatorMisuse.self) { try h.engine.start(at: 0, after: delay) }
    #expect(h.engine.state == .inactive)
  }

  @Test func delayedStartHoldsStillUntilTheDelayPasses() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0, after: 0.5) }
    #expect(h.engine.isRunning && h.engine.isWaitingToStart)
    h.advance(to: 0.4)
    #expect(h.x == 0)
    h.advance(to: 0.75)
    #expect(h.x == 25)
    h.advance(to: 1.5)
    #expect(h.ended.values == [.end])
  }

  @Test func scheduledPauseStopsTimeAtThePauseInstant() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.pause(at: 0.1, after: 0.3) }
    h.advance(to: 0.9)
    #expect(!h.engine.isRunning && h.engine.state == .active)
    #expect(abs(h.x - 40) < 1e-9)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 2) }
    h.advance(to: 2.3)
    #expect(abs(h.x - 70) < 1e-9)
  }

  @Test func pauseAndResumeContinuesFromTheSameFraction() throws {
    var h = Harness(timing: .curve(.easeInOut))
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.pause(at: 0.3) }
    let paused = h.x
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 10) }
    h.advance(to: 10.2)
    #expect(abs(h.x - 100 * CubicBezier.easeInOut.value(at: 0.5)) < 1e-9)
    #expect(paused == 100 * CubicBezier.easeInOut.value(at: 0.3))
  }

  @Test func reversedBeforeStartRunsBackwardsFromTheEnd() throws {
    var h = Harness()
    _ = try h.engine.setReversed(true, at: 0)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    #expect(h.x == 100)
    h.advance(to: 0.25)
    #expect(h.x == 75)
  }

  @Test func reversingMidFlightTurnsBackWithoutAJump() throws {
    var h = Harness(timing: .curve(.easeInOut))
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 0.6)
    let before = h.x
    try h.run { engine throws(AnimatorMisuse) in try engine.setReversed(true, at: 0.6) }
    h.advance(to: 0.6)
    #expect(abs(h.x - before) < 1e-9)
    h.advance(to: 0.8)
    #expect(abs(h.x - 100 * CubicBezier.easeInOut.value(at: 0.4)) < 1e-9)
    h.advance(to: 1.3)
    #expect(h.ended.values == [.start] && h.x == 0)
  }

  @Test func scrubbingFollowsTheCurveWhenNotLinear() throws {
    var h = Harness(timing: .curve(.easeIn))
    h.engine.scrubsLinearly = false
    try h.run { engine throws(AnimatorMisuse) in try engine.setFractionComplete(0.5) }
    #expect(h.x == 100 * CubicBezier.easeIn.value(at: 0.5))
    h.engine.scrubsLinearly = true
    try h.run { engine throws(AnimatorMisuse) in try engine.setFractionComplete(0.5) }
    #expect(h.x == 50)
  }

  @Test func resumingAfterLinearScrubbingContinuesWithoutAJump() throws {
    var h = Harness(timing: .curve(.easeInOut))
    try h.run { engine throws(AnimatorMisuse) in try engine.setFractionComplete(0.2) }
    #expect(h.x == 20)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 0.001)
    #expect(abs(h.x - 20) < 0.01)
    var last = h.x
    for step in 1...80 {
      h.advance(to: Double(step) / 100)
      #expect(h.x >= last)
      last = h.x
    }
    #expect(h.ended.values == [.end] && h.x == 100)
  }

  @Test func pausesOnCompletionStaysActiveWithoutCompleting() throws {
    var h = Harness()
    h.engine.pausesOnCompletion = true
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 3)
    #expect(h.engine.state == .active && !h.engine.isRunning && h.x == 100)
    #expect(h.ended.values.isEmpty)
    _ = try h.engine.setReversed(true, at: 3)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 3) }
    h.advance(to: 3.5)
    #expect(h.x == 50)
  }

  @Test func completionsRunExactlyOnce() throws {
    var h = Harness()
    let extra = Recording<AnimatingPosition>()
    h.engine.addCompletion(AnimationCompletion { extra.append($0) })
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    for step in 1...30 { h.advance(to: Double(step) / 10) }
    #expect(throws: AnimatorMisuse.self) { try h.engine.finish(at: .end) }
    #expect(h.ended.values == [.end] && extra.values == [.end])
  }

  @Test func addedAnimationsStartAtTheirDelayFactorOfTheRemainingTime() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.box.y = 10
    try h.run { engine throws(AnimatorMisuse) in
      try engine.addTracks([AnimationTrack(\Box.y, from: 10, to: 20)], delayFactor: 0.5, at: 0.5)
    }
    h.advance(to: 0.7)
    #expect(h.box.y == 10)
    h.advance(to: 0.875)
    #expect(abs(h.box.y - 15) < 1e-9)
    h.advance(to: 1)
    #expect(h.box.y == 20 && h.x == 100)
  }

  @Test(arguments: [-0.5, 1.5, .nan])
  func badDelayFactorsAreRefused(factor: Double) {
    var h = Harness()
    #expect(throws: AnimatorMisuse.self) {
      try h.engine.addTracks([AnimationTrack(\Box.y, from: 0, to: 1)], delayFactor: factor, at: 0)
    }
    #expect(h.engine.entries.count == 1)
  }

  @Test func continuingWithADurationFactorStretchesTheRest() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in try engine.pause(at: 0.5) }
    try h.run { engine throws(AnimatorMisuse) in
      try engine.continueAnimation(timing: nil, durationFactor: 2, at: 1)
    }
    h.advance(to: 1.5)
    #expect(abs(h.x - 75) < 1e-9)
    h.advance(to: 2)
    #expect(h.ended.values == [.end] && h.x == 100)
  }

  @Test func continuingWithNewTimingRetimesFromTheCurrentValue() throws {
    var h = Harness()
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    try h.run { engine throws(AnimatorMisuse) in
      try engine.continueAnimation(timing: .curve(.easeIn), durationFactor: 1, at: 0.5)
    }
    h.advance(to: 0.75)
    #expect(abs(h.x - (50 + 50 * CubicBezier.easeIn.value(at: 0.5))) < 1e-9)
    h.advance(to: 1)
    #expect(h.x == 100)
  }

  @Test func continuingAnInactiveAnimationIsIllegal() {
    var h = Harness()
    #expect(throws: AnimatorMisuse.self) {
      try h.engine.continueAnimation(timing: nil, durationFactor: 1, at: 0)
    }
  }

  @Test func repeatingPlaysTheAnimationCountTimes() throws {
    var h = Harness()
    try h.engine.setRepeat(count: 3, autoreverses: false)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 1.25)
    #expect(abs(h.x - 25) < 1e-9 && h.ended.values.isEmpty)
    h.advance(to: 2.5)
    #expect(abs(h.x - 50) < 1e-9)
    h.advance(to: 3)
    #expect(h.ended.values == [.end] && h.x == 100)
  }

  @Test func autoreversingGoesThereAndBack() throws {
    var h = Harness()
    try h.engine.setRepeat(count: 1, autoreverses: true)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 1.5)
    #expect(abs(h.x - 50) < 1e-9 && h.ended.values.isEmpty)
    h.advance(to: 2)
    #expect(h.ended.values == [.start] && h.x == 0)
  }

  @Test func repeatingForeverSkipsLongGapsInConstantTime() throws {
    var h = Harness()
    try h.engine.setRepeat(count: nil, autoreverses: true)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 1_000_000.25)
    #expect(abs(h.x - 25) < 1e-6 && h.engine.isRunning)
    h.advance(to: 1_000_001.25)
    #expect(abs(h.x - 75) < 1e-6)
  }

  @Test func zeroDurationJumpsToTheEndOnTheFirstFrame() throws {
    var h = Harness(duration: 0)
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    h.advance(to: 0)
    #expect(h.ended.values == [.end] && h.x == 100)
  }

  @Test func springTimingOvershootsAndLandsExactly() throws {
    var h = Harness(duration: 1, timing: .spring(dampingRatio: 0.3))
    try h.run { engine throws(AnimatorMisuse) in try engine.start(at: 0) }
    var peak = 0.0
    for step in 1...100 {
      h.advance(to: Double(step) / 100)
      peak = max(peak, h.x)
    }
    #expect(peak > 100)
    #expect(h.ended.values == [.end] && h.x == 100)
  }
}
