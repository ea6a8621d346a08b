import AffixDancing
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Testing

/// A host whose animations run on a frame source of its own, driven by virtual time.
private final class Pendulum: Dancing {
  let frames: VirtualFrames
  var x = 0.0

  init(framesPerSecond: Int) {
    frames = VirtualFrames(framesPerSecond: framesPerSecond)
  }

  var scheduler: VirtualClock { frames.clock }
  var danceFrames: FrameSource { frames.source }
}

/// Motion is a function of time, not of frames: the same animation on a 60 Hz and on a 120 Hz
/// display is at the same place at every instant both show, which is every 60 Hz frame.
@MainActor @Suite struct FrameRateIndependenceTests {
  /// Every 60 Hz frame, until the spring has settled, with both clocks started at once.
  private static func sixtyHertzFrames(of spring: DampedSpring) -> ClosedRange<Int> {
    1...Int((spring.settlingDuration * 60).rounded(.up)) + 1
  }

  @Test(arguments: [
    DampedSpring.smooth, .snappy, .bouncy, DampedSpring(duration: 0.3, bounce: -0.3),
  ])
  func aSpringIsAtTheSamePlaceAtSixtyAndAtOneHundredTwentyFramesASecond(_ spring: DampedSpring) {
    let slow = Pendulum(framesPerSecond: 60)
    let fast = Pendulum(framesPerSecond: 120)
    for host in [slow, fast] {
      host.dance.animate(spring: spring) { $0.x = 100 }.start()
    }
    var largestGap = 0.0
    for _ in Self.sixtyHertzFrames(of: spring) {
      slow.scheduler.advance(by: .seconds(1) / 60)
      fast.scheduler.advance(by: .seconds(1) / 60)
      largestGap = max(largestGap, abs(slow.x - fast.x))
    }
    // Rounding alone: the spring's closed form at the same elapsed time on both clocks.
    #expect(largestGap <= 1e-9 * 100)
    #expect(slow.x == 100 && fast.x == 100)
  }

  @Test func theFasterClockShowsTheSpringBetweenTheSlowerOnesFrames() {
    let spring = DampedSpring.bouncy
    let fast = Pendulum(framesPerSecond: 120)
    fast.dance.animate(spring: spring) { $0.x = 100 }.start()
    var positions: [Double] = []
    for _ in 0..<24 {
      fast.scheduler.advance(by: .seconds(1) / 120)
      positions.append(fast.x)
    }
    // Twice the frames of a 60 Hz clock, and the odd ones are new places, not repeats.
    #expect(fast.danceFrames.wakeUps == 24)
    let inBetween = stride(from: 0, to: 24, by: 2).filter { positions[$0] != positions[$0 + 1] }
    #expect(inBetween.count == 12)
  }

  @Test func aRetargetedSpringAgreesAtBothRatesToo() {
    let slow = Pendulum(framesPerSecond: 60)
    let fast = Pendulum(framesPerSecond: 120)
    for host in [slow, fast] {
      host.dance.animate(spring: .snappy) { $0.x = 100 }.start()
    }
    var largestGap = 0.0
    for frame in 1...90 {
      if frame == 12 {
        // At an instant both clocks show, mid-flight: the velocity carried must agree too.
        for host in [slow, fast] {
          host.dance.animate(spring: .bouncy) { $0.x = -50 }.start()
        }
      }
      slow.scheduler.advance(by: .seconds(1) / 60)
      fast.scheduler.advance(by: .seconds(1) / 60)
      largestGap = max(largestGap, abs(slow.x - fast.x))
    }
    #expect(largestGap <= 1e-6 * 150)
  }
}
