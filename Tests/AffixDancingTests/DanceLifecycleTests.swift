import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// A host on a virtual-time clock at 100 frames a second.
private final class Puppet: Dancing {
  let danceFrames: FrameSource
  var x = 0.0
  var y = 0.0

  init(clock: FrameSource) {
    danceFrames = clock
  }
}

@MainActor @Suite struct EndedTests {
  enum Phase: String, CaseIterable { case inactive, paused, stopped }

  @Test(arguments: Phase.allCases)
  func endedReturnsNilWhenTheHostDiesWithNoFrameComing(phase: Phase) async {
    let theatre = VirtualFrames()
    var puppet: Puppet? = Puppet(clock: theatre.source)
    guard let dance = puppet.map({ $0.dance.animate(duration: 1) { $0.x = 100 } }) else { return }
    switch phase {
    case .inactive: break
    case .paused: dance.start().pause()
    case .stopped: dance.start().stop()
    }
    let waiting = Task { await dance.ended() }
    #expect(await eventually { dance.dancer.waiterCount > 0 })
    // The handle outlives the host: only the release of the host's values can tell.
    puppet = nil
    _ = AssociationTable.sweep()
    #expect(await waiting.value == nil)
    #expect(theatre.source.subscriberCount == 0)
  }

  @Test func endedReturnsPromptlyWhenItsTaskIsCancelled() async {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1) { $0.x = 100 }.start().pause()
    let waiting = Task { await dance.ended() }
    #expect(await eventually { dance.dancer.waiterCount > 0 })
    waiting.cancel()
    #expect(await waiting.value == nil)
    #expect(dance.dancer.waiterCount == 0)
    #expect(dance.hasAnimation)
  }

  @Test func aCancelledTaskDoesNotWaitAtAll() async {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1) { $0.x = 100 }.start()
    let waiting = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await dance.ended()
    }
    #expect(await waiting.value == nil)
    #expect(dance.dancer.waiterCount == 0)
  }
}

@MainActor @Suite struct CompletionLifecycleTests {
  @Test func aCompletionThatDeclaresAnAnimationWhileAChainedOneStartsRunsBesideIt() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let ended = Recording<String>()
    puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
      .addCompletion { _ in
        ended.append("first")
        puppet.dance.animate(duration: 1, curve: .linear) { $0.y = 50 }
          .addCompletion { _ in ended.append("declared") }
          .start()
      }
      .then(duration: 1, curve: .linear) { $0.x = 0 }
      .addCompletion { _ in ended.append("chained") }
      .start()
    theatre.advance(1.5)
    // Two groups: the chain moving x back, the declared one moving y.
    #expect(puppet.dance.groups.count == 2)
    theatre.advance(1)
    #expect(ended.values == ["first", "chained", "declared"])
    #expect(puppet.x == 0 && puppet.y == 50)
  }

  @Test func aCompletionThatDeclaresAnAnimationWhenReplacedKeepsItWaiting() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let ended = Recording<String>()
    puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
      .addCompletion { _ in
        ended.append("first")
        puppet.dance.animate(duration: 1) { $0.y = 50 }
          .addCompletion { position in ended.append("declared at \(position)") }
      }
      .start()
    theatre.advance(0.5)
    puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 0 }
      .addCompletion { _ in ended.append("last") }
      .start()
    // The declared animation writes y, which nothing took: it waits for its start.
    #expect(ended.values == ["first"])
    #expect(puppet.dance.groups.count == 2)
    theatre.advance(2)
    #expect(ended.values == ["first", "last"])
    #expect(puppet.x == 0 && puppet.y == 0 && puppet.dance.state == .inactive)
    puppet.dance.start()
    theatre.advance(2)
    #expect(ended.values == ["first", "last", "declared at end"] && puppet.y == 50)
  }
}

@MainActor @Suite struct RepeatingForeverTests {
  @Test func startingAnAnimationThatRepeatsForeverWithACompletionSaysToCaptureTheHostWeakly() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let reported = DiagnosticLog.capture {
      puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
        .repeatingForever()
        .addCompletion { [weak puppet] _ in puppet?.y = 1 }
        .start()
      theatre.advance(2.5)
      puppet.dance.pause().start()
      theatre.advance(1)
    }.messages
    #expect(reported.count == 1)
    #expect(reported.first?.contains("repeatingForever with completions") == true)
    #expect(reported.first?.contains("[weak self]") == true)
    #expect(reported.first?.hasPrefix("Puppet with dance.tag = \(puppet.dance.tag): ") == true)
  }

  @Test func aCompletionAddedToARunningAnimationThatRepeatsForeverIsReportedToo() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let reported = DiagnosticLog.capture {
      puppet.dance.animate(duration: 1) { $0.x = 100 }.start().repeatingForever()
      theatre.advance(0.5)
      puppet.dance.addCompletion { _ in }
      puppet.dance.addCompletion { _ in }
    }.messages
    #expect(reported.count == 1)
    #expect(reported.first?.contains("repeatingForever with completions") == true)
  }

  @Test func animationsChainedAfterOneThatRepeatsForeverAreReportedAsNeverStarting() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let reported = DiagnosticLog.capture {
      puppet.dance.animate(duration: 1) { $0.x = 100 }.repeatingForever()
        .then(duration: 1) { $0.y = 100 }
        .start()
      theatre.advance(5)
    }.messages
    #expect(reported.count == 1)
    #expect(reported.first?.contains("they never start") == true)
    #expect(puppet.y == 0)
  }

  @Test func animationsThatEndOrHoldNothingForTheirEndAreNotReported() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let reported = DiagnosticLog.capture {
      puppet.dance.animate(duration: 1) { $0.x = 100 }.repeating(count: 3)
        .addCompletion { _ in }
        .then(duration: 1) { $0.y = 100 }
        .start()
      theatre.advance(5)
      puppet.dance.animate(duration: 1) { $0.x = 0 }.repeatingForever().start()
      theatre.advance(2)
      // Declared but not started: nothing holds the host from the clock yet.
      puppet.dance.animate(duration: 1) { $0.x = 50 }.repeatingForever().addCompletion { _ in }
    }.messages
    #expect(reported.isEmpty)
  }
}

@MainActor @Suite struct ContinuationTests {
  @Test func continuingWithNoNewTimingMovesExactlyAsStartDoes() {
    let theatre = VirtualFrames()
    let started = Puppet(clock: theatre.source)
    let continued = Puppet(clock: theatre.source)
    for puppet in [started, continued] {
      puppet.dance.animate(duration: 1, curve: .easeInOut) { $0.x = 100 }.start()
    }
    theatre.advance(0.3)
    started.dance.pause()
    continued.dance.pause()
    theatre.advance(0.2)
    started.dance.start()
    continued.dance.continueAnimation(timingParameters: nil, durationFactor: 1)
    for _ in 0..<8 {
      theatre.advance(0.1)
      #expect(abs(started.x - continued.x) < 1e-9)
    }
  }

  @Test func theDurationFactorScalesTheRemainingTimeAlongTheSameCurve() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    puppet.dance.animate(duration: 1, curve: .easeInOut) { $0.x = 100 }.start()
    theatre.advance(0.5)
    puppet.dance.pause().continueAnimation(durationFactor: 2)
    #expect(abs(puppet.x - 50) < 1e-9)
    // The remaining half of the time line now takes 1 s: half of it is done at 0.5 s, on the
    // animation's own curve.
    theatre.advance(0.5)
    #expect(abs(puppet.x - 100 * CubicBezier.easeInOut.value(at: 0.75)) < 1e-6)
    theatre.advance(0.5)
    #expect(puppet.x == 100)
  }
}

@MainActor @Suite struct ChainedSettingsTests {
  @Test func pausesOnCompletionAfterThenAppliesToTheChainedAnimation() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let ended = Recording<AnimatingPosition>()
    let dance = puppet.dance.animate(duration: 1) { $0.x = 100 }
      .then(duration: 1) { $0.y = 100 }
      .addCompletion { ended.append($0) }
    dance.pausesOnCompletion = true
    dance.start()
    theatre.advance(3)
    #expect(puppet.y == 100)
    #expect(ended.values.isEmpty)
    #expect(dance.state == .active && !dance.isRunning && dance.pausesOnCompletion)
  }

  @Test func scrubsLinearlyAfterThenAppliesToTheChainedAnimation() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1) { $0.x = 100 }
      .then(duration: 1, curve: .easeIn) { $0.y = 100 }
    dance.scrubsLinearly = false
    dance.start()
    theatre.advance(1.5)
    dance.setProgress(to: 0.5)
    #expect(abs(puppet.y - 100 * CubicBezier.easeIn.value(at: 0.5)) < 1e-6)
  }
}

@MainActor @Suite struct ClockTests {
  @Test func danceOfWithoutAClockKeepsTheClockTheHostDancesOn() {
    final class Plain {
      var value = 0.0
    }
    let theatre = VirtualFrames()
    let plain = Plain()
    let diagnostics = DiagnosticLog.capture {
      _ = Dance.of(plain, frames: theatre.source)
      Dance.of(plain).animate(duration: 1, curve: .linear) { $0.value = 10 }.start()
      Dance.of(plain).pause().start()
    }
    theatre.advance(2)
    #expect(plain.value == 10)
    #expect(diagnostics.all.isEmpty)
  }
}

@MainActor @Suite struct AddedAnimationTests {
  @Test func animationsAddedWhileReversedMoveAsTheAnimationRunsBack() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    theatre.advance(0.5)
    dance.reverse()
    dance.addAnimations { $0.y = 100 }
    theatre.advance(0.25)
    #expect(abs(puppet.x - 25) < 1e-9)
    #expect(abs(puppet.y - 50) < 1e-9)
    theatre.advance(0.5)
    #expect(puppet.x == 0 && puppet.y == 100)
  }
}

@MainActor @Suite struct StartValueTests {
  @Test func startValuesAreReadWhenTheAnimationStarts() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
    puppet.x = 50  // moved between animate and start
    dance.start()
    #expect(puppet.x == 50)
    theatre.advance(0.5)
    #expect(abs(puppet.x - 75) < 1e-9)
    theatre.advance(1)
    #expect(puppet.x == 100)
  }

  @Test func scrubbingAnAnimationThatHasNotStartedReadsItsStartValuesToo() {
    let theatre = VirtualFrames()
    let puppet = Puppet(clock: theatre.source)
    let dance = puppet.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }
    puppet.x = 60
    dance.setProgress(to: 0.5)
    #expect(abs(puppet.x - 80) < 1e-9)
  }
}
