import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Testing

/// Runs on a private serial queue; every expectation waits for an action instead of for time,
/// so the tests pass however fast or slow the machine is.
@Suite struct DispatchClockTests {
  let queue = DispatchQueue(label: "org.affix.tests.dispatch-scheduler")
  var scheduler: DispatchClock { DispatchClock(queue: queue) }

  /// Waits until an action scheduled after `delay` has run on the scheduler's queue: everything
  /// due before it on the serial queue has run by then.
  func fence(on scheduler: DispatchClock, after delay: Duration) async {
    await withCheckedContinuation { continuation in
      scheduler.schedule(after: delay) { continuation.resume() }.detach()
    }
  }

  /// Runs `body` on the scheduler's serial queue and waits for it: while it runs, no action of
  /// the scheduler can start, whatever the delays involved.
  func onQueue(of scheduler: DispatchClock, _ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
      scheduler.schedule(after: .zero) {
        body()
        continuation.resume()
      }.detach()
    }
  }

  @Test func delayedTaskRunsOnTheQueue() async {
    let scheduler = self.scheduler
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "scheduler queue")
    let ranOn = Recording<String?>()
    let token = TokenBox()
    await withCheckedContinuation { continuation in
      token.token = scheduler.schedule(after: .milliseconds(1)) {
        ranOn.append(DispatchQueue.getSpecific(key: key))
        continuation.resume()
      }
    }
    #expect(ranOn.values == ["scheduler queue"])
  }

  @Test(arguments: [Duration.zero, .milliseconds(-10)])
  func nonPositiveDelayRunsSoon(delay: Duration) async {
    let scheduler = self.scheduler
    let token = TokenBox()
    await withCheckedContinuation { continuation in
      token.token = scheduler.schedule(after: delay) { continuation.resume() }
    }
  }

  @Test func cancelledTaskNeverRuns() async {
    let scheduler = self.scheduler
    let ran = Recording<Int>()
    await onQueue(of: scheduler) {
      let token = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
      token.cancel()
    }
    await fence(on: scheduler, after: .milliseconds(20))
    #expect(ran.count == 0)
  }

  @Test func droppedTokenCancelsTheTask() async {
    let scheduler = self.scheduler
    let ran = Recording<Int>()
    await onQueue(of: scheduler) {
      let token = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
      withExtendedLifetime(token) {}
    }
    await fence(on: scheduler, after: .milliseconds(20))
    #expect(ran.count == 0)
  }

  @Test func detachedTaskRunsWithoutItsToken() async {
    let scheduler = self.scheduler
    let ran = Recording<Int>()
    do {
      let token = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
      token.detach()
    }
    await fence(on: scheduler, after: .milliseconds(20))
    #expect(ran.count == 1)
  }

  @Test func repeatingTimerFiresUntilCancelled() async throws {
    let scheduler = self.scheduler
    let fired = Recording<Int>()
    let box = TokenBox()
    await withCheckedContinuation { continuation in
      do {
        box.token = try scheduler.scheduleRepeating(every: .milliseconds(2)) {
          fired.append(1)
          if fired.count == 3 { continuation.resume() }
        }
      } catch {
        Issue.record(error)
        continuation.resume()
      }
    }
    box.cancel()
    // A firing that had already started when `cancel` returned finishes before this action,
    // since the queue is serial; nothing may fire after it.
    let countAtCancel = Recording<Int>()
    await onQueue(of: scheduler) { countAtCancel.append(fired.count) }
    await fence(on: scheduler, after: .milliseconds(30))
    #expect(countAtCancel.values.first.map { $0 >= 3 } == true)
    #expect(fired.count == countAtCancel.values.first)
  }

  @Test func repeatingTimerStopsWhenItsTokenIsDropped() async throws {
    let scheduler = self.scheduler
    let fired = Recording<Int>()
    let box = TokenBox()
    await withCheckedContinuation { continuation in
      box.token = try? scheduler.scheduleRepeating(every: .milliseconds(2), after: .zero) {
        fired.append(1)
        if fired.count == 1 { continuation.resume() }
      }
    }
    // Dropped from the queue itself, so no firing can be running at the same time.
    let countAtDrop = Recording<Int>()
    await onQueue(of: scheduler) {
      box.token = nil
      countAtDrop.append(fired.count)
    }
    await fence(on: scheduler, after: .milliseconds(30))
    #expect(fired.count == countAtDrop.values.first)
  }

  @Test func clockAdvancesFromZero() async {
    let scheduler = self.scheduler
    let start = scheduler.now
    #expect(start >= .zero)
    await fence(on: scheduler, after: .milliseconds(2))
    #expect(scheduler.now > start)
  }

  @Test func frameClockDeliversFramesOnARealQueue() async {
    let clock = FrameSource(clock: scheduler, framesPerSecond: 500)
    let frames = Recording<FrameSource.Frame>()
    let box = TokenBox()
    await withCheckedContinuation { continuation in
      box.token = clock.subscribe { frame in
        frames.append(frame)
        if frame.index == 2 { continuation.resume() }
      }
    }
    box.cancel()
    #expect(!clock.isRunning)
    let recorded = Array(frames.values.prefix(3))
    #expect(recorded.map(\.index) == [0, 1, 2])
    #expect(recorded[0].delta == clock.interval)
    #expect(recorded[1].timestamp > recorded[0].timestamp)
    #expect(recorded[2].delta == recorded[2].timestamp - recorded[1].timestamp)
  }
}
