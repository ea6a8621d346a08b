import Affix
import AffixDancing
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// A card with a position and an opacity, on a virtual-time clock at 100 frames a second.
private final class Card: Dancing {
  let danceFrames: FrameSource
  var x = 0.0
  var y = 0.0
  var opacity = 1.0

  init(clock: FrameSource) {
    danceFrames = clock
  }
}

private struct Table {
  let frames = VirtualFrames()
  let card: Card

  init() {
    card = Card(clock: frames.source)
  }

  var scheduler: VirtualClock { frames.clock }
  var clock: FrameSource { frames.source }
  func advance(_ seconds: Double) { frames.advance(seconds) }
}

/// The dance diagnostics `body` reports, on this task only: other subsystems' are not what
/// these tests are about.
@MainActor private func danceDiagnostics(_ body: () -> Void) -> [Diagnostic] {
  DiagnosticLog.capture(body).all.filter { $0.subsystem == "dance" }
}

@MainActor @Suite struct IndependentGroupsTests {
  @Test func aFadeDeclaredMidFlightLeavesTheMoveRunning() {
    let table = Table()
    let ends = Recording<String>()
    let move = table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
      .addCompletion { ends.append("move \($0)") }
      .start()
    table.advance(0.5)
    let fade = table.card.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }
      .addCompletion { ends.append("fade \($0)") }
      .start()
    #expect(table.card.dance.groups.count == 2)
    table.advance(0.25)
    // Neither froze the other.
    #expect(abs(table.card.x - 75) < 1e-9 && abs(table.card.opacity - 0.75) < 1e-9)
    #expect(move.isRunning && fade.isRunning)
    table.advance(0.25)
    #expect(table.card.x == 100 && ends.values == ["move end"])
    table.advance(0.5)
    #expect(table.card.opacity == 0 && ends.values == ["move end", "fade end"])
    #expect(!table.card.dance.hasAnimation && table.clock.subscriberCount == 0)
  }

  @Test func hostDanceAddressesTheLatestGroupAndEachHandleItsOwn() {
    let table = Table()
    let move = table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    table.advance(0.2)
    let fade = table.card.dance.animate(duration: 1, curve: .linear) { $0.opacity = 0 }.start()
    table.card.dance.pause()
    #expect(!fade.isRunning && move.isRunning && table.card.dance.tag == fade.tag)
    table.advance(0.2)
    #expect(abs(table.card.x - 40) < 1e-9 && table.card.opacity == 1)
    move.pause()
    fade.start()
    table.advance(0.2)
    #expect(abs(table.card.x - 40) < 1e-9 && abs(table.card.opacity - 0.8) < 1e-9)
    // Every group is reachable: finish the earlier one through the list.
    table.card.dance.groups.first?.stop().finish(at: .end)
    #expect(table.card.x == 100 && !move.hasAnimation && fade.hasAnimation)
    #expect(table.card.dance.groups.count == 1)
  }

  @Test func theLaterGroupTakesAnOverlappingPropertyAndTheEarlierRunsOn() {
    let table = Table()
    let ends = Recording<String>()
    let first = table.card.dance.animate(duration: 1, curve: .linear) {
      $0.x = 100
      $0.y = 100
    }.addCompletion { ends.append("first \($0)") }.start()
    table.advance(0.5)
    let second = table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 0 }
      .addCompletion { ends.append("second \($0)") }
      .start()
    table.advance(0.25)
    // x is the later group's, heading back from 50; y still the earlier's.
    #expect(abs(table.card.x - 37.5) < 1e-9 && abs(table.card.y - 75) < 1e-9)
    table.advance(0.25)
    // The earlier group had y left to animate: it ends at its end, as usual.
    #expect(table.card.y == 100 && ends.values == ["first end"] && !first.hasAnimation)
    table.advance(0.5)
    #expect(table.card.x == 0 && ends.values == ["first end", "second end"])
    #expect(!second.hasAnimation)
  }

  @Test func aGroupLeftWithNothingEndsAtCurrentAndItsChainIsDropped() {
    let table = Table()
    let ends = Recording<String>()
    let first = table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
      .addCompletion { ends.append("first \($0) at \(table.card.x)") }
      .then(duration: 1) { $0.y = 50 }
      .addCompletion { ends.append("chained \($0)") }
      .start()
    table.advance(0.5)
    table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 0 }.start()
    #expect(ends.values == ["first current at 50.0"] && !first.hasAnimation)
    table.advance(2)
    #expect(table.card.x == 0 && table.card.y == 0 && ends.values.count == 1)
  }

  @Test func aPausedGroupLosesOnlyTheTakenPropertyAndResumesTheRest() {
    let table = Table()
    let first = table.card.dance.animate(duration: 1, curve: .linear) {
      $0.x = 100
      $0.y = 100
    }.start()
    table.advance(0.5)
    first.pause()
    table.card.dance.animate(duration: 1, curve: .linear) { $0.x = -100 }.start()
    table.advance(0.5)
    #expect(abs(table.card.x - -25) < 1e-9 && table.card.y == 50 && first.state == .active)
    first.start()
    table.advance(0.5)
    #expect(table.card.y == 100 && table.card.x == -100 && !first.hasAnimation)
  }

  @Test func scrubbingAnEarlierGroupMovesOnlyWhatItStillOwns() {
    let table = Table()
    let first = table.card.dance.animate(duration: 1, curve: .linear) {
      $0.x = 100
      $0.y = 100
    }
    first.setProgress(to: 0.5)
    #expect(table.card.x == 50 && table.card.y == 50)
    let second = table.card.dance.animate(duration: 1, curve: .linear) { $0.x = 0 }
    second.setProgress(to: 0.5)
    #expect(table.card.x == 25)
    first.setProgress(to: 1)
    // y follows the scrub; x is the second group's and stays where it put it.
    #expect(table.card.y == 100 && table.card.x == 25)
    second.setProgress(to: 1)
    #expect(table.card.x == 0)
  }

  @Test func aDecayBesideACurveKeepsGliding() {
    let table = Table()
    let glide = table.card.dance.decay(\.x, velocity: 1000).start()
    table.advance(0.1)
    let before = table.card.x
    table.card.dance.animate(duration: 0.5, curve: .linear) { $0.opacity = 0 }.start()
    table.advance(0.1)
    #expect(table.card.x > before && glide.isRunning)
    table.advance(5)
    #expect(abs(table.card.x - Decay(velocity: 1000).projectedDistance) < 1e-9)
    #expect(table.card.opacity == 0 && !table.card.dance.hasAnimation)
  }

  @Test func aSpringTakingADecaysPropertyKeepsItsVelocityAndTheDecayEnds() {
    let table = Table()
    let ends = Recording<AnimatingPosition>()
    table.card.dance.decay(\.x, velocity: 1000).addCompletion { ends.append($0) }.start()
    table.advance(0.1)
    let moving = table.card.x
    table.card.dance.animate(spring: .smooth) { $0.x = 0 }.start()
    #expect(ends.values == [.current])
    table.advance(0.01)
    // Still moving forward for a moment: the decay's velocity was kept.
    #expect(table.card.x > moving)
  }

  @Test func whenTheHostDiesEveryGroupEndsWithoutCompletions() async {
    let table = Table()
    let ends = Recording<AnimatingPosition>()
    var card: Card? = Card(clock: table.clock)
    // swift-format-ignore: NeverForceUnwrap
    let move = card!.dance.animate(duration: 1) { $0.x = 100 }
      .addCompletion { ends.append($0) }.start()
    // swift-format-ignore: NeverForceUnwrap
    let fade = card!.dance.animate(duration: 1) { $0.opacity = 0 }
      .addCompletion { ends.append($0) }.start()
    let movedWait = move.ending
    async let moved = movedWait()
    let fadedWait = fade.ending
    async let faded = fadedWait()
    // swift-format-ignore: NeverForceUnwrap
    #expect(await eventually { card!.dance.dancer.waiterCount >= 2 })
    table.advance(0.1)
    card = nil
    table.advance(0.1)
    let movedEnd = await moved
    let fadedEnd = await faded
    #expect(movedEnd == nil && fadedEnd == nil)
    #expect(ends.values.isEmpty && table.clock.subscriberCount == 0)
    #expect(Dancer.runningCount(on: table.clock) == 0)
  }

  @Test func endedWaitsForItsOwnGroupOnly() async {
    let table = Table()
    let short = table.card.dance.animate(duration: 0.5) { $0.opacity = 0 }.start()
    let long = table.card.dance.animate(duration: 2) { $0.x = 100 }.start()
    let shortEndWait = short.ending
    async let shortEnd = shortEndWait()
    #expect(await eventually { table.card.dance.dancer.waiterCount > 0 })
    table.advance(0.6)
    let end = await shortEnd
    #expect(end == .end)
    #expect(long.isRunning)
    table.advance(2)
  }
}

@MainActor @Suite struct DanceSettingsTests {
  @Test func settingsAfterThenReadBackWhatWasSet() {
    let table = Table()
    let dance = table.card.dance.animate(duration: 1) { $0.x = 100 }
      .then(duration: 1) { $0.y = 100 }
    #expect(!dance.pausesOnCompletion && dance.scrubsLinearly && !dance.isReversed)
    dance.pausesOnCompletion = true
    dance.scrubsLinearly = false
    dance.setReversed(true)
    #expect(dance.pausesOnCompletion && !dance.scrubsLinearly && dance.isReversed)
    // The running animation kept its own.
    dance.start()
    table.advance(1.05)
    // The chained one began reversed and stays at its end, paused: y is back at its start.
    #expect(table.card.x == 100)
    table.advance(1.1)
    #expect(table.card.y == 0 && dance.state == .active && !dance.isRunning)
    #expect(dance.pausesOnCompletion && !dance.scrubsLinearly && dance.isReversed)
  }

  @Test func settingsWithNoChainReadTheCurrentAnimation() {
    let table = Table()
    let dance = table.card.dance.animate(duration: 1) { $0.x = 100 }
    dance.pausesOnCompletion = true
    dance.setReversed(true)
    #expect(dance.pausesOnCompletion && dance.isReversed)
  }
}

@MainActor @Suite struct ForgottenStartTests {
  @Test func anAnimationNeverStartedIsReportedOnceWhenReplaced() {
    let table = Table()
    let line = #line + 2
    let reports = danceDiagnostics {
      table.card.dance.animate(duration: 1) { $0.x = 100 }  // no start()
      table.card.dance.animate(duration: 1) { $0.x = 50 }.start()
      table.advance(2)
    }
    let forgotten = reports.filter { $0.message.contains("never started") }
    #expect(forgotten.count == 1)
    // Named where it was declared.
    #expect(forgotten.first?.fileID == #fileID && forgotten.first?.line == line)
    #expect(table.card.x == 50)
  }

  @Test func anAnimationNeverStartedIsReportedWhenTheDanceIsDetached() {
    let table = Table()
    let reports = danceDiagnostics {
      table.card.dance.animate(duration: 1) { $0.opacity = 0 }  // no start()
      table.card.dance.animate(duration: 1) { $0.x = 50 }.start()
      Associations(of: table.card).removeCapability(Dancer.self)
    }
    #expect(reports.filter { $0.message.contains("never started") }.count == 1)
  }

  @Test func startedOrScrubbedAnimationsAreNotReported() {
    let table = Table()
    let reports = danceDiagnostics {
      table.card.dance.animate(duration: 1) { $0.x = 100 }.setProgress(to: 0.5)
      table.card.dance.animate(duration: 1) { $0.x = 50 }.start()
      table.card.dance.animate(duration: 1) { $0.y = 50 }.start()
      table.advance(2)
      Associations(of: table.card).removeCapability(Dancer.self)
    }
    #expect(reports.isEmpty)
  }
}

@MainActor @Suite struct CallSiteTests {
  @Test func misuseIsReportedAtTheCallersLine() {
    let table = Table()
    let reports = danceDiagnostics {
      table.card.dance.finish(at: .end)
      table.card.dance.animate(duration: 1) { $0.x = 1 }.setProgress(to: 2)
    }
    #expect(reports.count == 2)
    #expect(reports.allSatisfy { $0.fileID == #fileID })
    #expect(reports.map(\.line) == [#line - 5, #line - 4])
  }
}

@MainActor @Suite struct ChainedReducedMotionTests {
  @Test func aChainStartedWithReducedMotionKeepsItForEveryLink() {
    let table = Table()
    ReducedMotion.$override.withValue(true) {
      table.card.dance.animate(duration: 1) { $0.x = 100 }
        .then(duration: 1) { $0.y = 100 }
        .then(duration: 1) { $0.opacity = 0 }
        .start()
    }
    // Frames run outside the override: each link still ends at its first frame.
    for _ in 0..<3 { table.advance(0.01) }
    #expect(table.card.x == 100 && table.card.y == 100 && table.card.opacity == 0)
    #expect(!table.card.dance.hasAnimation)
  }

  @Test func aChainStartedWithMotionKeepsMovingUnderAnOverride() {
    let table = Table()
    ReducedMotion.$override.withValue(false) {
      table.card.dance.animate(duration: 0.1, curve: .linear) { $0.x = 100 }
        .then(duration: 1, curve: .linear) { $0.y = 100 }
        .start()
    }
    ReducedMotion.$override.withValue(true) {
      table.advance(0.6)
    }
    #expect(table.card.x == 100 && abs(table.card.y - 50) < 1e-6)
  }
}
