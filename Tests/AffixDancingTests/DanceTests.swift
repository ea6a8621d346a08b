import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import Foundation
import Synchronization
import Testing

/// A host that conforms, on a virtual-time clock at 100 frames a second so that frames fall on
/// round numbers.
private final class Sprite: Dancing {
  let danceFrames: FrameSource
  var position = CGPoint.zero
  var opacity = 1.0
  var tint = RGBAColor.black
  var label = "sprite"

  init(clock: FrameSource) {
    danceFrames = clock
  }
}

private struct Stage {
  let frames = VirtualFrames()
  let sprite: Sprite
  let diagnostics = Recording<String>()

  init() {
    sprite = Sprite(clock: frames.source)
  }

  var clock: VirtualClock { frames.clock }
  var source: FrameSource { frames.source }
  func advance(_ seconds: Double) { frames.advance(seconds) }

  /// Runs `body` with the diagnostics it reports collected.
  func withDiagnostics<T>(_ body: () throws -> T) rethrows -> T {
    let diagnostics = diagnostics
    return try Diagnostics.withHandler(
      { diagnostics.append($0.description) }, operation: body)
  }
}

@MainActor struct DanceTests {
  @Test func animatesAPropertyToItsTargetOnTheClock() {
    let stage = Stage()
    stage.sprite.dance.animate(duration: 1, curve: .linear) {
      $0.position = CGPoint(x: 100, y: 50)
    }.start()
    #expect(stage.sprite.position == .zero)
    stage.advance(0.5)
    #expect(abs(stage.sprite.position.x - 50) < 1e-9 && abs(stage.sprite.position.y - 25) < 1e-9)
    stage.advance(0.6)
    #expect(stage.sprite.position == CGPoint(x: 100, y: 50))
    #expect(!stage.sprite.dance.hasAnimation && stage.sprite.dance.state == .inactive)
  }

  @Test func severalPropertiesAnimateTogetherAndTheProxyReadsTargets() {
    let stage = Stage()
    let seen = Mutex(0.0)
    stage.sprite.opacity = 0.2
    stage.sprite.dance.animate(duration: 1, curve: .linear) {
      $0.opacity = 1
      $0.tint = .white
      $0.opacity = $0.opacity / 2
      seen.withLock { $0 = $0 + 1 }
    }.start()
    stage.advance(0.5)
    #expect(abs(stage.sprite.opacity - 0.35) < 1e-9)
    #expect(abs(stage.sprite.tint.red - 0.5) < 1e-9)
    stage.advance(1)
    #expect(stage.sprite.opacity == 0.5 && stage.sprite.tint == .white)
  }

  @Test func theClockIsSubscribedOnlyWhileRunning() {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1) { $0.opacity = 0 }
    #expect(stage.source.subscriberCount == 0)
    dance.start()
    #expect(stage.source.subscriberCount == 1 && stage.source.isRunning)
    stage.advance(0.2)
    dance.pause()
    #expect(stage.source.subscriberCount == 0 && !stage.source.isRunning)
    let wakeUps = stage.source.wakeUps
    stage.advance(5)
    #expect(stage.source.wakeUps == wakeUps)
    dance.start()
    stage.advance(2)
    #expect(stage.source.subscriberCount == 0 && !stage.source.isRunning)
    #expect(stage.clock.pendingCount == 0)
  }

  @Test func completionsGetTheFinalPositionExactlyOnce() {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    stage.sprite.dance.animate(duration: 0.5) { $0.opacity = 0 }
      .addCompletion { ended.append($0) }
      .addCompletion { ended.append($0) }
      .start()
    stage.advance(3)
    #expect(ended.values == [.end, .end])
  }

  @Test func startAfterADelayWaitsThenRuns() {
    let stage = Stage()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start(after: 2)
    stage.advance(1.9)
    #expect(stage.sprite.opacity == 1 && stage.sprite.dance.isRunning)
    stage.advance(0.6)
    #expect(abs(stage.sprite.opacity - 0.5) < 1e-9)
  }

  @Test func pauseAfterADelayPausesThere() {
    let stage = Stage()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
      .pause(after: 0.3)
    stage.advance(1)
    #expect(abs(stage.sprite.opacity - 0.7) < 1e-9)
    #expect(stage.sprite.dance.state == .active && !stage.sprite.dance.isRunning)
    #expect(abs(stage.sprite.dance.progress - 0.3) < 1e-9)
  }

  @Test func reverseMidFlightReturnsToTheStart() {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .addCompletion { ended.append($0) }.start()
    stage.advance(0.4)
    dance.reverse()
    #expect(dance.isReversed)
    stage.advance(0.2)
    #expect(abs(stage.sprite.opacity - 0.8) < 1e-9)
    stage.advance(1)
    #expect(stage.sprite.opacity == 1 && ended.values == [.start])
  }

  @Test(arguments: [Float(0.25), Float(0.75)])
  func setProgressScrubsAnyFloatingPointType(progress: Float) {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1, curve: .easeIn) { $0.opacity = 0 }
    dance.setProgress(to: progress)
    #expect(dance.state == .active && !dance.isRunning)
    #expect(abs(stage.sprite.opacity - (1 - Double(progress))) < 1e-6)
    dance.setProgress(to: CGFloat(0.5))
    #expect(abs(dance.progress - 0.5) < 1e-12)
    dance.setProgress(to: 0.1)
    #expect(abs(stage.sprite.opacity - 0.9) < 1e-9)
  }

  @Test func setProgressPausesARunningAnimation() {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
    stage.advance(0.3)
    dance.setProgress(to: 0.9)
    #expect(!dance.isRunning && abs(stage.sprite.opacity - 0.1) < 1e-9)
  }

  @Test(arguments: [AnimatingPosition.start, .current, .end])
  func finishEndsARunningAnimationAtThePosition(position: AnimatingPosition) {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .addCompletion { ended.append($0) }.start()
    stage.advance(0.4)
    stage.sprite.dance.finish(at: position)
    let expected: Double = position == .start ? 1 : position == .current ? 0.6 : 0
    #expect(abs(stage.sprite.opacity - expected) < 1e-9)
    #expect(ended.values == [position] && !stage.sprite.dance.hasAnimation)
    #expect(stage.source.subscriberCount == 0)
  }

  @Test func reanimatingFinishesThePreviousAnimationWhereItIs() {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    let firstTag = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .addCompletion { ended.append($0) }.start().tag
    stage.advance(0.5)
    let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 1 }
    #expect(ended.values == [.current])
    #expect(dance.tag != firstTag && dance.state == .inactive)
    dance.start()
    stage.advance(0.5)
    #expect(abs(stage.sprite.opacity - 0.75) < 1e-9)
  }

  @Test func misusesAreReportedWithTheHostAndTagAndChangeNothing() {
    let stage = Stage()
    stage.withDiagnostics {
      stage.sprite.dance.start()
      stage.sprite.dance.finish(at: .end)
      let dance = stage.sprite.dance.animate(duration: 1) { $0.opacity = 0 }
      dance.finish(at: .end)
      dance.setProgress(to: Double.nan)
      dance.setProgress(to: 1.5)
      dance.setProgress(to: 0.2)
      dance.start().stop()
      dance.start()
      dance.repeating(count: 0)
    }
    let lines = stage.diagnostics.values
    #expect(lines.count == 7)
    #expect(lines.allSatisfy { $0.hasPrefix("affix[dance]: Sprite with dance.tag = ") })
    #expect(lines[0].contains("no animation"))
    #expect(stage.sprite.dance.state == .stopped)
    #expect(abs(stage.sprite.opacity - 0.8) < 1e-9)
  }

  @Test(arguments: [-1, -Double.infinity, Double.infinity, Double.nan])
  func anUnusableDelayIsReportedAndTakenAsZero(delay: Double) {
    let stage = Stage()
    stage.withDiagnostics {
      let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      dance.start(after: delay)  // starts now
      stage.advance(0.5)
      dance.pause(after: delay)  // pauses now
      stage.advance(0.25)
    }
    let lines = stage.diagnostics.values
    #expect(lines.count == 2, "one report for each call")
    #expect(lines.allSatisfy { $0.contains("using 0") })
    #expect(stage.sprite.dance.state == .active && !stage.sprite.dance.isRunning)
    #expect(abs(stage.sprite.opacity - 0.5) < 1e-9, "started at once, paused at once")
  }

  @Test func stopWithoutFinishingRunsNoCompletions() async {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    let dance = stage.sprite.dance.animate(duration: 1) { $0.opacity = 0 }
      .addCompletion { ended.append($0) }.start()
    stage.advance(0.5)
    dance.stop(withoutFinishing: true)
    stage.advance(1)
    #expect(ended.values.isEmpty && !dance.hasAnimation && stage.source.subscriberCount == 0)
  }

  @Test func repeatingAndAutoreversing() {
    let stage = Stage()
    let ended = Recording<AnimatingPosition>()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .repeating(count: 2, autoreverses: true)
      .addCompletion { ended.append($0) }.start()
    stage.advance(1.5)
    #expect(abs(stage.sprite.opacity - 0.5) < 1e-9)
    stage.advance(2)
    #expect(ended.values.isEmpty)
    stage.advance(0.6)
    #expect(ended.values == [.start] && stage.sprite.opacity == 1)
  }

  @Test func chainedAnimationsRunOneAfterAnother() {
    let stage = Stage()
    let ended = Recording<String>()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .addCompletion { _ in ended.append("first") }
      .then(duration: 1, curve: .linear) { $0.position = CGPoint(x: 10, y: 0) }
      .addCompletion { _ in ended.append("second") }
      .start()
    stage.advance(1.5)
    #expect(ended.values == ["first"] && stage.sprite.opacity == 0)
    #expect(abs(stage.sprite.position.x - 5) < 0.2)
    stage.advance(1)
    #expect(ended.values == ["first", "second"] && stage.sprite.position.x == 10)
    #expect(stage.source.subscriberCount == 0)
  }

  @Test func awaitingReturnsWhereTheAnimationEnded() async {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1) { $0.opacity = 0 }.start()
    let positionWait = dance.ending
    async let position = positionWait()
    #expect(await eventually { dance.dancer.waiterCount > 0 })
    stage.advance(2)
    #expect(await position == .end)
    #expect(await dance.ended() == nil)
  }

  @Test func addedAnimationsJoinARunningAnimation() {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
    stage.advance(0.5)
    dance.addAnimations(delayFactor: 0) { $0.position = CGPoint(x: 100, y: 0) }
    stage.advance(0.25)
    #expect(abs(stage.sprite.position.x - 50) < 1e-9)
    stage.advance(0.5)
    #expect(stage.sprite.position.x == 100)
  }

  @Test func continueAnimationRetimesTheRest() {
    let stage = Stage()
    let dance = stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
    stage.advance(0.5)
    dance.pause().continueAnimation(timingParameters: .curve(.linear), durationFactor: 2)
    stage.advance(0.5)
    #expect(abs(stage.sprite.opacity - 0.25) < 1e-9)
  }

  @Test func nonConformingObjectsReachTheSameHandle() {
    final class Plain {
      var value = 0.0
    }
    let frames = VirtualFrames()
    let plain = Plain()
    Dance.of(plain, frames: frames.source).animate(duration: 1, curve: .linear) { $0.value = 10 }
    #expect(Dance.of(plain).hasAnimation)
    #expect(Dance.of(plain).dancer === Associations(of: plain).capability(Dancer.self))
    Dance.of(plain).start()
    frames.clock.advance(by: .seconds(2))
    #expect(plain.value == 10)
  }

  @Test func detachingStopsTheAnimationAndWritesNothingMore() {
    let stage = Stage()
    stage.sprite.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
    stage.advance(0.3)
    Associations(of: stage.sprite).removeCapability(Dancer.self)
    let frozen = stage.sprite.opacity
    stage.advance(1)
    #expect(stage.sprite.opacity == frozen && stage.source.subscriberCount == 0)
  }

  @Test func springAnimationsOvershootAndLand() {
    let stage = Stage()
    var peak = 0.0
    stage.sprite.dance.animate(duration: 1, dampingRatio: 0.3) {
      $0.position = CGPoint(x: 100, y: 0)
    }.start()
    for _ in 0..<120 {
      stage.advance(0.01)
      peak = max(peak, stage.sprite.position.x)
    }
    #expect(peak > 100 && stage.sprite.position.x == 100)
  }
}
