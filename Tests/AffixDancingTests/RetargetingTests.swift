import AffixDancing
import AffixMotion
import AffixScheduling
import Foundation
import Testing

/// A clock at 1000 frames a second, so that a frame's secant is close to the velocity it
/// measures.
extension ClockedBox {
  static let frame = 0.001

  static func fine() -> ClockedBox {
    ClockedBox(framesPerSecond: 1000)
  }

  func advance(frames: Int) {
    advance(milliseconds: frames)
  }

  /// The values of `read` over the next `frames` frames, starting with the current one.
  func samples<T>(frames: Int, _ read: (Box) -> T) -> [T] {
    var values = [read(box)]
    for _ in 0..<frames {
      advance(frames: 1)
      values.append(read(box))
    }
    return values
  }
}

/// A bound on how much two secants of adjacent frames can differ for a spring motion: each
/// secant is the velocity somewhere in its frame (the mean value theorem), so they differ by
/// at most two frames times the largest acceleration. A spring's acceleration is
/// `-(w0^2 u + 2 zeta w0 u')`, with `u` the distance left and `u'` the velocity; both are
/// bounded over the two frames by their values at the retarget with 10% to spare.
@MainActor private func secantTolerance(spring: DampedSpring, distance: Double, speed: Double)
  -> Double
{
  let w0 = spring.naturalFrequency
  let acceleration = w0 * w0 * abs(distance) * 1.1 + 2 * spring.dampingRatio * w0 * speed * 1.1
  return 2 * ClockedBox.frame * acceleration
}

@MainActor struct RetargetingTests {
  @Test func aRetargetedSpringKeepsItsVelocityWithNoKink() {
    let stage = ClockedBox.fine()
    stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    stage.advance(frames: 99)
    let before = stage.samples(frames: 1) { $0.x }
    stage.dance.animate(spring: .bouncy) { $0.x = 40 }.start()
    let after = stage.samples(frames: 1) { $0.x }
    #expect(after[0] == before[1], "the retarget starts where the motion is")
    let velocityBefore = (before[1] - before[0]) / ClockedBox.frame
    let velocityAfter = (after[1] - after[0]) / ClockedBox.frame
    let tolerance = max(
      secantTolerance(spring: .snappy, distance: 100 - before[1], speed: velocityBefore),
      secantTolerance(spring: .bouncy, distance: 40 - before[1], speed: velocityBefore))
    // Moving fast towards 100, well past 40: starting from rest would differ by all of it.
    #expect(velocityBefore > 300 && tolerance < velocityBefore / 10)
    #expect(abs(velocityAfter - velocityBefore) < tolerance)
    // The carried velocity overshoots further than the spring alone would, and still lands
    // exactly on the target.
    let path = stage.samples(frames: 2000) { $0.x }
    #expect(path.max()! > before[1] + 5)
    #expect(stage.box.x == 40 && !stage.dance.hasAnimation)
  }

  /// Along a line, keeping a velocity `V` is a spring released with the unit-space velocity
  /// `V / distance`, up to the term that lands it exactly, `V h(settling time)` times the
  /// progress.
  @Test func alongALineTheMotionIsTheSpringReleasedWithTheUnitVelocity() {
    let stage = ClockedBox.fine()
    stage.dance.animate(duration: 1, curve: .linear) { $0.x = 300 }.start()
    stage.advance(frames: 400)
    let start = stage.box.x
    stage.dance.animate(spring: .snappy) { $0.x = 0 }.start()
    let path = stage.samples(frames: 800) { $0.x }
    let velocity = 300.0  // the linear animation's, exactly
    let released = DampedSpring.snappy.withInitialVelocity(
      DampedSpring.unitVelocity(pointsPerSecond: velocity, distance: 0 - start))
    let landing = abs(
      velocity * DampedSpring.snappy.impulseResponse(at: DampedSpring.snappy.settlingDuration))
    // Below the settling tolerance of the distance: the correction cannot be seen.
    #expect(landing < DampedSpring.settlingTolerance * abs(start))
    // Up to the end: there every spring animation is placed on its target, within the
    // settling tolerance of where the closed form is.
    let end = Int(DampedSpring.snappy.settlingDuration / ClockedBox.frame)
    #expect(path.count > end && path.last == 0)
    for (frame, x) in path.enumerated() where frame <= end {
      let expected = start + (0 - start) * released.value(at: Double(frame) * ClockedBox.frame)
      // The landing term is scaled by the progress, which this spring overshoots by 2%.
      #expect(abs(x - expected) <= landing * 1.05 + 1e-9, "frame \(frame)")
    }
  }

  @Test func aVelocityAcrossTheNewDirectionIsKeptToo() {
    let stage = ClockedBox.fine()
    stage.dance.animate(duration: 1, curve: .linear) { $0.center = CGPoint(x: 100, y: 0) }
      .start()
    stage.advance(frames: 500)
    let before = stage.samples(frames: 1) { $0.center }
    // Turned a right angle: the new target lies straight up from where the box is.
    stage.dance.animate(spring: .smooth) { $0.center = CGPoint(x: 50, y: 80) }.start()
    let after = stage.samples(frames: 1) { $0.center }
    let velocityBefore = (before[1].x - before[0].x) / ClockedBox.frame
    let velocityAfter = (
      x: (after[1].x - after[0].x) / ClockedBox.frame,
      y: (after[1].y - after[0].y) / ClockedBox.frame
    )
    #expect(abs(velocityBefore - 100) < 1e-6)
    let tolerance = secantTolerance(spring: .smooth, distance: 80, speed: 100)
    #expect(tolerance < 50)
    #expect(abs(velocityAfter.x - velocityBefore) < tolerance)
    #expect(abs(velocityAfter.y) < tolerance)
    _ = stage.samples(frames: 3000) { $0.center }
    #expect(stage.box.center == CGPoint(x: 50, y: 80))
  }

  @Test func retargetingARetargetedMotionKeepsItsVelocityAgain() {
    let stage = ClockedBox.fine()
    stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    stage.advance(frames: 60)
    stage.dance.animate(spring: .bouncy) { $0.x = -50 }.start()
    stage.advance(frames: 119)
    let before = stage.samples(frames: 1) { $0.x }
    stage.dance.animate(spring: .snappy) { $0.x = 200 }.start()
    let after = stage.samples(frames: 1) { $0.x }
    let velocityBefore = (before[1] - before[0]) / ClockedBox.frame
    let velocityAfter = (after[1] - after[0]) / ClockedBox.frame
    let tolerance = max(
      secantTolerance(spring: .bouncy, distance: -50 - before[1], speed: abs(velocityBefore)),
      secantTolerance(spring: .snappy, distance: 200 - before[1], speed: abs(velocityBefore)))
    #expect(abs(velocityBefore) > 3 * tolerance)
    #expect(abs(velocityAfter - velocityBefore) < tolerance)
  }

  @Test func aBezierCurveStartsFromRest() {
    let stage = ClockedBox.fine()
    stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    stage.advance(frames: 100)
    let before = stage.samples(frames: 0) { $0.x }
    stage.dance.animate(duration: 0.5, curve: .easeInOut) { $0.x = 0 }.start()
    let after = stage.samples(frames: 1) { $0.x }
    #expect(after[0] == before[0])
    // easeInOut leaves at rest: the first frame barely moves.
    #expect(abs(after[1] - after[0]) / ClockedBox.frame < 5)
  }

  @Test func aSpringWithAVelocityOfItsOwnIgnoresTheMotionItReplaces() {
    let stage = ClockedBox.fine()
    stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    stage.advance(frames: 100)
    let start = stage.box.x
    stage.dance.animate(spring: DampedSpring.smooth.withInitialVelocity(-2)) { $0.x = start + 10 }
      .start()
    let after = stage.samples(frames: 1) { $0.x }
    // -2 of a distance of 10 per second: -20 units per second, whatever it moved at before.
    // The secant over the first frame is the velocity half a frame in: the spring's
    // acceleration, about w0^2 * 10 + 2 w0 * 20 = 2080 per second squared, moves it by about 1.
    #expect(abs((after[1] - after[0]) / ClockedBox.frame + 20) < 2)
  }

  @Test func aLaterOrDelayedStartHasNoVelocityToKeep() {
    for delayed in [false, true] {
      let stage = ClockedBox.fine()
      stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
      stage.advance(frames: 100)
      let dance = stage.dance.animate(spring: .smooth) { $0.x = 0 }
      if delayed {
        dance.start(after: 0.01)
        stage.advance(frames: 10)
      } else {
        stage.advance(frames: 10)
        dance.start()
      }
      let after = stage.samples(frames: 1) { $0.x }
      // From rest, a smooth spring's first millisecond covers a hair of its distance.
      #expect(abs(after[1] - after[0]) / ClockedBox.frame < 10, "delayed: \(delayed)")
    }
  }

  @Test func aPausedMotionHasNoVelocityToKeep() {
    let stage = ClockedBox.fine()
    stage.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    stage.advance(frames: 100)
    stage.dance.pause()
    stage.dance.animate(spring: .smooth) { $0.x = 0 }.start()
    let after = stage.samples(frames: 1) { $0.x }
    #expect(abs(after[1] - after[0]) / ClockedBox.frame < 10)
  }

  @Test func springVelocityIsTheDerivativeOfItsValue() {
    for spring in [
      DampedSpring.smooth, .snappy, .bouncy, DampedSpring(duration: 0.4, bounce: -0.5),
    ] {
      for time in [0.0, 0.05, 0.2, 0.7] {
        let step = 1e-6
        let secant =
          (spring.value(at: time + step) - spring.value(at: max(time - step, 0)))
          / (time > 0 ? 2 * step : step)
        #expect(abs(spring.velocity(at: time) - secant) < 1e-3, "\(spring) at \(time)")
      }
    }
  }
}
