import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import AffixTesting
import Foundation
import Testing

private final class Puppet {
  var x = 0.0
}

private final class OwningPuppet: AssociationOwner {
  let associationStorage = AssociationStorage()
  var x = 0.0
}

/// An object that only lives as long as something captures it.
private final class Marker: Sendable {}

@MainActor struct DancingLeakChecks {
  let frames = VirtualFrames()
  var scheduler: VirtualClock { frames.clock }
  var clock: FrameSource { frames.source }

  @Test(.tags(.leakCheck))
  func hostDeathStopsItsAnimationAndUnsubscribesItFromTheClock() {
    expectNoLeaks { tracker in
      do {
        let puppet = Puppet()
        let dance = Dance.of(puppet, frames: clock).animate(duration: 10) { $0.x = 100 }.start()
        scheduler.advance(by: .milliseconds(100))
        #expect(clock.subscriberCount == 1)
        tracker.track(puppet, "host")
        tracker.track(dance.dancer, "dancer")
      }
      scheduler.advance(by: .milliseconds(10))
      #expect(clock.subscriberCount == 0 && !clock.isRunning)
      #expect(scheduler.pendingCount == 0)
      AssociationTable.sweep()
    }
  }

  /// The rule for an animation that repeats forever: its completions are held until it is
  /// finished, stopped or replaced, so one that captures the host weakly lets the host go.
  @Test(.tags(.leakCheck))
  func anAnimationRepeatingForeverLetsGoOfAHostItsCompletionCapturesWeakly() {
    expectNoLeaks { tracker in
      Diagnostics.withHandler({ _ in }) {
        do {
          let puppet = Puppet()
          let dance = Dance.of(puppet, frames: clock).animate(duration: 1) { $0.x = 100 }
            .repeatingForever(autoreverses: true)
            .addCompletion { [weak puppet] _ in puppet?.x = 0 }
            .start()
          scheduler.advance(by: .milliseconds(2500))
          tracker.track(puppet, "host")
          tracker.track(dance.dancer, "dancer")
        }
        scheduler.advance(by: .milliseconds(10))
      }
      #expect(clock.subscriberCount == 0 && !clock.isRunning)
      #expect(scheduler.pendingCount == 0)
      AssociationTable.sweep()
    }
  }

  @Test(.tags(.leakCheck))
  func aRunningAnimationNeverKeepsItsHostAlive() {
    expectNoLeaks { tracker in
      do {
        let puppet = OwningPuppet()
        let dance = Dance.of(puppet, frames: clock).animate(duration: 10) { $0.x = 100 }.start()
        tracker.track(puppet, "host")
        tracker.track(dance.dancer, "dancer")
      }
      // An owner releases its dancer at its deinit; the subscription goes with it, no frame
      // needed.
      #expect(clock.subscriberCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func theClocksDriverLetsARunningAnimationGoWithItsDancer() {
    expectNoLeaks { tracker in
      do {
        let puppet = OwningPuppet()
        let captured = Marker()
        tracker.track(captured, "captured by a running animation's completion")
        let dance = Dance.of(puppet, frames: clock).animate(duration: 10) { $0.x = 100 }
          .addCompletion { _ in withExtendedLifetime(captured) {} }
          .start()
        scheduler.advance(by: .milliseconds(100))
        tracker.track(dance.dancer, "dancer")
      }
      // No frame runs after the owner's deinit: the driver must not hold the animation.
      #expect(clock.subscriberCount == 0 && !clock.isRunning)
      #expect(Dancer.runningCount(on: clock) == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func detachingARunningDancerReleasesItsAnimation() {
    let puppet = Puppet()
    expectNoLeaks { tracker in
      do {
        let captured = Marker()
        tracker.track(captured, "captured by a running animation's completion")
        let dance = Dance.of(puppet, frames: clock).animate(duration: 10) { $0.x = 100 }
          .addCompletion { _ in withExtendedLifetime(captured) {} }
          .start()
        scheduler.advance(by: .milliseconds(100))
        tracker.track(dance.dancer, "dancer")
        Associations(of: puppet).removeCapability(Dancer.self)
      }
      #expect(clock.subscriberCount == 0 && Dancer.runningCount(on: clock) == 0)
    }
    let written = puppet.x
    scheduler.advance(by: .seconds(1))
    #expect(puppet.x == written)
  }

  @Test(.tags(.leakCheck))
  func aFinishedAnimationLeavesNothingBehind() {
    let puppet = Puppet()
    expectNoLeaks { tracker in
      do {
        let captured = Marker()
        let chained = Marker()
        tracker.track(captured, "captured by a completion")
        tracker.track(chained, "captured by a chained animation")
        Dance.of(puppet, frames: clock).animate(duration: 0.5) { $0.x = 100 }
          .addCompletion { _ in withExtendedLifetime(captured) {} }
          .then(duration: 0.5) { _ in withExtendedLifetime(chained) {} }
          .start()
      }
      scheduler.advance(by: .seconds(2))
      #expect(!Dance.of(puppet, frames: clock).hasAnimation)
      #expect(clock.subscriberCount == 0 && scheduler.pendingCount == 0)
    }
    #expect(puppet.x == 100)
  }

  @Test(.tags(.leakCheck))
  func replacingOrStoppingAnAnimationReleasesItsClosures() {
    let puppet = Puppet()
    expectNoLeaks { tracker in
      do {
        let first = Marker()
        let second = Marker()
        tracker.track(first, "first animation's completion")
        tracker.track(second, "second animation's completion")
        let dance = Dance.of(puppet, frames: clock)
        dance.animate(duration: 1) { $0.x = 10 }
          .addCompletion { _ in withExtendedLifetime(first) {} }.start()
        scheduler.advance(by: .milliseconds(200))
        dance.animate(duration: 1) { $0.x = 20 }
          .addCompletion { _ in withExtendedLifetime(second) {} }.start()
        scheduler.advance(by: .milliseconds(200))
        dance.stop(withoutFinishing: true)
      }
      #expect(clock.subscriberCount == 0)
    }
  }
}
