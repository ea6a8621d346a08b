import Affix
import AffixScheduling
import AffixTesting
import Blink
import Observation
import Synchronization
import Testing

/// A main-actor view, adopting the mixin for the main actor alone.
@MainActor final class Lamp {
  let scheduler = VirtualClock()
  var toggles: [Bool] = []
  var isVisible = true {
    didSet {
      MainActor.assertIsolated("the mixin wrote a main-actor property off the main actor")
      toggles.append(isVisible)
    }
  }
}

extension Lamp: @MainActor Blinking {
  var blinkClock: any SchedulingClock { scheduler }
}

@MainActor @Suite struct BlinkTests {
  @Test func itTogglesTheGivenNumberOfTimesAndEndsVisible() {
    let lamp = Lamp()
    lamp.blink(times: 2, every: .milliseconds(100))
    lamp.scheduler.advance(by: .milliseconds(250))
    #expect(lamp.toggles == [false, true])
    lamp.scheduler.advance(by: .seconds(1))
    #expect(lamp.toggles == [false, true, false, true])
    #expect(lamp.scheduler.pendingCount == 0)
  }

  @Test func blinkingAgainReplacesTheBlinkInProgress() {
    let lamp = Lamp()
    lamp.blink(times: 5, every: .milliseconds(100))
    lamp.scheduler.advance(by: .milliseconds(100))
    lamp.blink(times: 1, every: .milliseconds(300))
    lamp.scheduler.advance(by: .seconds(2))
    #expect(lamp.toggles == [false, false, true])
    #expect(lamp.scheduler.pendingCount == 0)
  }

  @Test func swiftObservationIsToldOfEachToggleAndOfTheStop() throws {
    let lamp = Lamp()
    lamp.blink(times: 2, every: .milliseconds(100))
    let blinker = try #require(Associations(of: lamp).capability(Blinker.self))
    let changes = Mutex(0)
    func track() {
      withObservationTracking {
        _ = blinker.togglesLeft
      } onChange: {
        changes.withLock { $0 += 1 }
      }
    }
    track()
    lamp.scheduler.advance(by: .milliseconds(100))
    #expect(changes.withLock { $0 } == 1)
    #expect(blinker.togglesLeft == 3)
    track()
    lamp.stopBlinking()
    #expect(changes.withLock { $0 } == 2)
    #expect(blinker.togglesLeft == 0)
  }

  @Test func stoppingShowsTheLampAndCancelsTheTimer() {
    let lamp = Lamp()
    lamp.blink(times: 5, every: .milliseconds(100))
    lamp.scheduler.advance(by: .milliseconds(100))
    lamp.stopBlinking()
    #expect(lamp.isVisible)
    #expect(lamp.scheduler.pendingCount == 0)
  }

  @Test func aClockAdvancedOffTheMainActorTogglesTheLampOnTheMainActor() async {
    let lamp = Lamp()
    lamp.blink(times: 1, every: .milliseconds(100))
    let scheduler = lamp.scheduler
    let finished = Task { await lamp.blinkFinished() }
    // The clock's thread: a detached task. The setter asserts that it runs on the main actor.
    await Task.detached { scheduler.advance(by: .seconds(1)) }.value
    await finished.value
    // The wait includes the toggles the clock's thread queued on the main actor.
    #expect(lamp.toggles == [false, true])
  }

  @Test func aStopMadeAfterATickQueuedItsWriteLeavesTheLampVisible() async {
    let lamp = Lamp()
    lamp.blink(times: 5, every: .milliseconds(100))
    // A tick on a thread of its own while the main actor waits here: its toggle waits to run
    // on the main actor, and the stop comes first. The toggle, decided as it runs, after the
    // stop, writes nothing: the lamp is only shown.
    lamp.scheduler.advanceOnAnotherThread(by: .milliseconds(100))
    lamp.stopBlinking()
    await lamp.blinkFinished()
    #expect(lamp.isVisible)
    #expect(lamp.toggles == [true])
  }

  @Test func aStopMadeWhileTheClocksThreadTicksLeavesTheLampVisible() async throws {
    for round in 0..<300 {
      let lamp = Lamp()
      lamp.blink(times: 100_000, every: .milliseconds(1))
      let blinker = try #require(Associations(of: lamp).capability(Blinker.self))
      let untouched = blinker.togglesLeft
      let scheduler = lamp.scheduler
      let ticking = Task.detached {
        for _ in 0..<2_000 { scheduler.advance(by: .milliseconds(1)) }
      }
      // Stops while the clock's thread ticks: blocking here, so no toggle runs in between. The
      // first tick is awaited within a deadline, so that a clock that never ticks fails, not hangs.
      let deadline = ContinuousClock.now + .seconds(10)
      while blinker.togglesLeft == untouched && ContinuousClock.now < deadline {
        await Task.yield()
      }
      try #require(blinker.togglesLeft < untouched, "round \(round): the clock never ticked")
      lamp.stopBlinking()
      await ticking.value
      await lamp.blinkFinished()
      #expect(lamp.isVisible, "round \(round): a tick made during the stop hid the lamp")
      #expect(blinker.togglesLeft == 0)
    }
  }

  @Test func badInputIsReportedWithTheCallersLine() {
    let lamp = Lamp()
    let seen = LockedState<[Diagnostic]>([])
    let line = #line + 4
    Diagnostics.withHandler(
      { diagnostic in seen.withLock { $0.append(diagnostic) } },
      operation: {
        lamp.blink(times: 0, every: .seconds(1))
      })
    let reports = seen.withLock { $0 }
    #expect(reports.map(\.subsystem) == ["blink"])
    #expect(reports.first?.line == line)
    #expect(lamp.toggles.isEmpty)
  }

  @Test(.tags(.leakCheck)) func aDeadLampReleasesItsBlinkerMidBlink() throws {
    try expectNoLeaks { tracker in
      do {
        let lamp = Lamp()
        lamp.blink(times: 5, every: .milliseconds(100))
        tracker.track(lamp, "host")
        tracker.track(try #require(Associations(of: lamp).capability(Blinker.self)), "blinker")
      }
      AssociationTable.sweep()
    }
  }
}
