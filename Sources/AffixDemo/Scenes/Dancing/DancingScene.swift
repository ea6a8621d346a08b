import Affix
import AffixDancing
import AffixScheduling
import Foundation

/// A ball animated across the terminal with an easing curve, then paused, scrubbed, reversed,
/// stopped and finished, with its progress and state live; then a spring, a spring interrupted
/// on its way that keeps its velocity, and a decay.
enum DancingScene {
  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("dancing: a property animator on any object")
    let ball = Ball(clock: stage.frameClock)
    let dance = ball.dance
    let track = BallTrack(ball: ball, dance: dance, screen: screen)
    let drawing = stage.frameClock.subscribe { _ in track.draw() }

    stage.run {
      dance.animate(duration: 2, curve: .easeInOut) {
        $0.position = CGPoint(x: 100, y: 0)
        $0.opacity = 0.3
      }.addCompletion { position in
        screen.detail("completion: the animation ended at the \(position)")
      }.start()
    }
    screen.step(
      "animate(duration: 2, curve: .easeInOut) { x 0 → 100, opacity 1 → 0.3 }.start()")

    stage.run(after: .milliseconds(900)) { dance.pause() }
    screen.step("pause(): \(track.reading)")
    stage.pause(.milliseconds(300))

    for progress in [0.25, 0.9, 0.5] {
      stage.run { dance.setProgress(to: progress) }
      screen.step("setProgress(to: \(progress)): \(track.reading)")
      stage.pause(.milliseconds(300))
    }

    stage.run { dance.reverse().start() }
    screen.step("reverse().start(): heading back towards x = 0")
    stage.run(after: .milliseconds(500)) {}
    screen.step("running reversed: \(track.reading)")

    stage.run { dance.stop() }
    screen.step("stop(): frozen where it is, \(track.reading)")
    stage.pause(.milliseconds(300))
    stage.run { dance.finish(at: .end) }
    screen.step("finish(at: .end): \(track.reading)")
    stage.pause(.milliseconds(300))

    screen.step("Calls that make no sense now are diagnostics, not crashes:")
    stage.run {
      dance.finish(at: .end)
      dance.setProgress(to: 1.5)
    }
    stage.pause(.milliseconds(300))

    track.startMeasuringOvershoot()
    stage.run {
      dance.animate(duration: 1.5, dampingRatio: 0.3) {
        $0.position = CGPoint(x: 20, y: 0)
        $0.opacity = 1
      }.start()
    }
    screen.step("animate(duration: 1.5, dampingRatio: 0.3) { x 100 → 20 }.start(): a spring")
    stage.wait(upTo: .seconds(4)) { !dance.hasAnimation }
    // The curve's own lowest point, sampled finely: the frames the terminal saw may miss it
    // when the demo runs fast on a busy machine.
    let spring = TimingParameters.spring(dampingRatio: 0.3)
    let deepest =
      stride(from: 0.0, through: 1.5, by: 0.001).map {
        100 + (20 - 100) * spring.value(at: $0, duration: 1.5)
      }.min() ?? 20
    screen.step(
      "the spring's curve overshoots to x = \(decimal(deepest)) (lowest frame drawn: "
        + "x = \(decimal(track.lowestX))) and settled at "
        + "x = \(decimal(ball.position.x)) (state \(dance.state))")
    stage.pause(.milliseconds(300))

    interruptAndGlide(ball: ball, track: track, on: stage)
    drawing.cancel()
    screen.clearLive()
  }

  /// A spring sent elsewhere while it moves: the new spring starts with the ball's velocity,
  /// so the ball carries on a little before it turns, with no kink. Then a flick that decays
  /// to the resting value projected before it starts.
  private static func interruptAndGlide(ball: Ball, track: BallTrack, on stage: Stage) {
    let screen = stage.screen
    let dance = ball.dance
    track.startMeasuringOvershoot()
    stage.run {
      dance.animate(spring: .snappy) { $0.position = CGPoint(x: 90, y: 0) }.start()
    }
    screen.step("animate(spring: .snappy) { x 20 → 90 }.start(): on its way…")
    let retargetX = LockedState(0.0)
    stage.run(after: .milliseconds(120)) {
      retargetX.withLock { $0 = Double(ball.position.x) }
      dance.animate(spring: .bouncy) { $0.position = CGPoint(x: 20, y: 0) }.start()
    }
    let interruptedAt = retargetX.withLock { $0 }
    screen.step(
      "animate(spring: .bouncy) { x → 20 } while moving right, at x = \(decimal(interruptedAt))")
    stage.wait(upTo: .seconds(4)) { !dance.hasAnimation }
    screen.step(
      "it kept its velocity: carried on to x = \(decimal(track.highestX)) before turning back, "
        + "no kink, and settled at x = \(decimal(ball.position.x))")
    stage.pause(.milliseconds(300))

    let flick = Decay(velocity: 120, rate: .normal)
    let landing = Double(ball.position.x) + flick.projectedDistance
    stage.run { dance.decay(\.position, velocity: CGPoint(x: 120, y: 0)).start() }
    screen.step(
      "decay(\\.position, velocity: 120 points/s): projected to rest at x = \(decimal(landing))")
    stage.wait(upTo: .seconds(5)) { !dance.hasAnimation }
    screen.step("the decay came to rest at x = \(decimal(ball.position.x)) (state \(dance.state))")
    stage.pause(.milliseconds(300))
  }
}
