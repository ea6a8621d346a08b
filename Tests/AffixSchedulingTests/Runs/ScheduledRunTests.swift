import Affix
import AffixScheduling
import AffixTestSupport
import Testing

@Suite struct ScheduledRunTests {
  @Test func aRunKeepsItsTokenUntilItFinishes() throws {
    let scheduler = VirtualClock()
    let run = ScheduledRun()
    let fired = Recording<String>()
    let id = run.start { _ in scheduler.schedule(after: .seconds(1)) { fired.append("fired") } }
    #expect(run.isRunning)
    scheduler.advance(by: .seconds(1))
    #expect(fired.values == ["fired"])
    #expect(run.finish(try #require(id)))
    #expect(!run.isRunning)
  }

  @Test func restartingCancelsTheWorkOfThePreviousRunAndMakesItsIDStale() {
    let scheduler = VirtualClock()
    let run = ScheduledRun()
    let fired = Recording<Int>()
    let first = run.start { _ in scheduler.schedule(after: .seconds(1)) { fired.append(1) } }
    let second = run.start { _ in scheduler.schedule(after: .seconds(2)) { fired.append(2) } }
    scheduler.advance(by: .seconds(3))
    #expect(fired.values == [2])
    #expect(first.map(run.isCurrent) == false)
    #expect(first.map(run.finish) == false)
    #expect(run.isRunning)
    #expect(second.map(run.isCurrent) == true)
  }

  @Test func cancellingStopsTheScheduledWork() {
    let scheduler = VirtualClock()
    let run = ScheduledRun()
    let fired = Recording<Int>()
    run.start { _ in scheduler.schedule(after: .seconds(1)) { fired.append(1) } }
    #expect(run.cancel())
    #expect(!run.cancel())
    scheduler.advance(by: .seconds(2))
    #expect(fired.count == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func aShutDownRunCancelsAndNeverStartsAgain() {
    let scheduler = VirtualClock()
    let run = ScheduledRun()
    run.start { _ in scheduler.schedule(after: .seconds(1)) {} }
    run.shutDown()
    let called = Recording<Int>()
    let id = run.start { _ in
      called.append(1)
      return nil
    }
    #expect(id == nil)
    #expect(called.count == 0)
    #expect(!run.isRunning)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func finishedReturnsAtOnceWhenIdle() async {
    await ScheduledRun().finished()
  }

  @Test func finishedWaitsForTheEndOfTheRunThatReplacedTheOneItWaitedFor() async throws {
    let run = ScheduledRun()
    run.start { _ in nil }
    let waiter = Task { await run.finished() }
    #expect(await eventually { run.waiterCount > 0 })
    let second = try #require(run.start { _ in nil })
    #expect(run.waiterCount == 1)
    run.finish(second)
    await waiter.value
    #expect(run.waiterCount == 0)
  }

  @Test func aCancelledWaiterReturnsAtOnceAndLeavesTheList() async {
    let run = ScheduledRun()
    run.start { _ in nil }
    let waiter = Task { await run.finished() }
    #expect(await eventually { run.waiterCount > 0 })
    waiter.cancel()
    await waiter.value
    #expect(run.waiterCount == 0)
    #expect(run.isRunning)
  }
}

@Suite struct WaitersTests {
  @Test func aWaiterRegisteredAfterTheEndReturnsTheEndsValue() async {
    let waiters = Waiters<Int>()
    let value = await waiters.wait(ifCancelled: -1) { 7 }
    #expect(value == 7)
    #expect(waiters.count == 0)
  }

  @Test func resumeAllHandsEveryWaiterTheValue() async {
    let waiters = Waiters<Int>()
    let tasks = (0..<3).map { _ in Task { await waiters.wait(ifCancelled: -1) { nil } } }
    #expect(await eventually { waiters.count >= 3 })
    waiters.resumeAll(returning: 5)
    for task in tasks { #expect(await task.value == 5) }
  }

  @Test func aCancelledWaiterGetsTheCancelledValue() async {
    let waiters = Waiters<Int>()
    let task = Task { await waiters.wait(ifCancelled: -1) { nil } }
    #expect(await eventually { waiters.count > 0 })
    task.cancel()
    #expect(await task.value == -1)
    #expect(waiters.count == 0)
  }
}

@Suite struct IsolatedCallbackTests {
  @Test func whetherAnIsolationRunsInlineIsAskedOfTheQueueNotOfACallback() async {
    actor Elsewhere {}
    #expect(IsolatedCallback<Void>.runsInline(in: nil))
    #expect(!IsolatedCallback<Void>.runsInline(in: Elsewhere()))
    let offTheMainQueue = await Task.detached {
      IsolatedCallback<Void>.runsInline(in: MainActor.shared)
    }.value
    #expect(!offTheMainQueue)
    let onTheMainQueue = await MainActor.run {
      IsolatedCallback<Void>.runsInline(in: MainActor.shared)
    }
    #expect(onTheMainQueue)
  }

  @Test func aNonisolatedCallbackRunsAtOnceOnTheCallersThread() {
    let ran = Recording<Int>()
    let callback = IsolatedCallback<Int>(nonisolated: { ran.append($0) })
    #expect(callback.runsInline)
    callback(3)
    #expect(ran.values == [3])
  }

  @Test func aMainActorCallbackCalledFromAnotherThreadRunsOnTheMainActor() async {
    let callback = await makeMainActorCallback()
    #expect(!callback.runsInline)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Task.detached { callback(done) }
    }
  }

  @MainActor private func makeMainActorCallback()
    -> IsolatedCallback<CheckedContinuation<Void, Never>>
  {
    IsolatedCallback(isolation: #isolation) { done in
      MainActor.assertIsolated("an isolated callback ran off its actor")
      done.resume()
    }
  }

  actor Counter {
    var count = 0
    func makeCallback() -> IsolatedCallback<Int> {
      IsolatedCallback(isolation: self) { self.count += $0 }
    }
  }

  @Test func anActorCallbackRunsOnItsActor() async {
    let counter = Counter()
    let callback = await counter.makeCallback()
    callback(2)
    #expect(await eventually { await counter.count > 0 })
    #expect(await counter.count == 2)
  }
}
