import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

/// Async code under test: it sleeps on whatever clock it is given.
private func countTicks(
  _ ticks: Recording<Int>, every interval: Duration, times: Int, on clock: some Clock<Duration>
) async throws {
  for tick in 1...times {
    try await clock.sleep(for: interval)
    ticks.append(tick)
  }
}

@Suite struct VirtualClockAsAClockTests {
  let clock = VirtualClock()

  @Test func aSleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
    let clock = self.clock
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    try await clock.waitForSleepers()
    #expect(clock.sleeperCount == 1)

    clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 1)  // still asleep: its wake-up has not run
    #expect(clock.pendingCount == 1)

    clock.advance(by: .milliseconds(1))
    #expect(clock.sleeperCount == 0)
    #expect(clock.pendingCount == 0)
    try await sleeper.value
  }

  @Test func taskSleepWithTheClockSleepsOnVirtualTime() async throws {
    let clock = self.clock
    let sleeper = Task { try await Task.sleep(for: .seconds(60), clock: clock) }
    try await clock.waitForSleepers()
    clock.advance(by: .seconds(60))
    try await sleeper.value
    #expect(clock.now == .zero + .seconds(60))
  }

  @Test func codeGenericOverClockRunsOnVirtualTime() async throws {
    let clock = self.clock
    let ticks = Recording<Int>()
    let counter = Task { try await countTicks(ticks, every: .seconds(5), times: 3, on: clock) }
    for expected in 1...3 {
      try await clock.waitForSleepers()
      #expect(ticks.count == expected - 1)
      clock.advance(by: .seconds(5))
    }
    try await counter.value
    #expect(ticks.values == [1, 2, 3])
  }

  @Test func sleepersWakeInOrderOfDeadlineAmongOtherWork() async throws {
    let clock = self.clock
    let sleepers = [3, 1, 2].map { seconds in
      Task { try await clock.sleep(for: .seconds(seconds)) }
    }
    try await clock.waitForSleepers(3)
    // Actions between the deadlines see how many sleepers are left at each point.
    let seen = Recording<Int>()
    let probes = [500, 1500, 2500, 3500].map { milliseconds in
      clock.schedule(after: .milliseconds(milliseconds)) { seen.append(clock.sleeperCount) }
    }
    clock.advance(by: .seconds(4))
    #expect(seen.values == [3, 2, 1, 0])
    for sleeper in sleepers { try await sleeper.value }
    withExtendedLifetime(probes) {}
  }

  @Test func cancellingASleeperThrowsAndRemovesIt() async throws {
    let clock = self.clock
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    try await clock.waitForSleepers()
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
    #expect(clock.pendingCount == 0)
  }

  @Test func aCancelledTaskDoesNotSleep() async throws {
    let clock = self.clock
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.pendingCount == 0)
  }

  @Test func aDeadlineAlreadyReachedReturnsAtOnce() async throws {
    clock.advance(by: .seconds(2))
    try await clock.sleep(until: .zero + .seconds(1))
    try await clock.sleep(for: .zero)
    #expect(clock.pendingCount == 0)
  }

  @Test func waitingForSleepersEndsWhenCancelled() async throws {
    let clock = self.clock
    let waiter = Task { try await clock.waitForSleepers() }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }

  @Test func waitingForSleepersReturnsAtOnceWhenEnoughSleep() async throws {
    let clock = self.clock
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    try await clock.waitForSleepers()
    try await clock.waitForSleepers(1)
    sleeper.cancel()
    _ = await sleeper.result
  }
}

@Suite struct DispatchClockAsAClockTests {
  @Test func aDispatchClockIsAClockItsTimerWakes() async throws {
    let scheduler = DispatchClock(queue: DispatchQueue(label: "clock-tests"))
    let fired = Recording<Int>()
    let timer = scheduler.schedule(after: .milliseconds(5)) { fired.append(1) }
    // The same queue's timer at the same delay, scheduled first, has fired by the wake-up.
    try await scheduler.sleep(for: .milliseconds(5))
    withExtendedLifetime(timer) {}
    #expect(fired.values == [1])
  }

  @Test func cancellingASleepOnDispatchThrowsWithoutWaitingForTheTimer() async throws {
    let scheduler: any SchedulingClock = DispatchClock(
      queue: DispatchQueue(label: "clock-tests"))
    // An hour: the test ends only because cancellation resumes the task.
    let sleeper = Task { try await Task.sleep(for: .seconds(3600), clock: scheduler) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }
}

// The sample of Docs/Scheduling.md (Async code on virtual time), as it reads there.
private final class Refresher: Sendable {
  let refreshes = Mutex(0)

  func run(every interval: Duration, on clock: some Clock<Duration>) async throws {
    while true {
      try await clock.sleep(for: interval)
      refreshes.withLock { $0 += 1 }
    }
  }
}

@Test func refreshesOnlyWhenTheIntervalHasPassed() async throws {
  let clock = VirtualClock()
  let refresher = Refresher()
  let task = Task { try await refresher.run(every: .seconds(5), on: clock) }

  try await clock.waitForSleepers()  // the task sleeps: now time may move
  clock.advance(by: .seconds(4))
  #expect(clock.sleeperCount == 1)  // not woken: a second to go
  clock.advance(by: .seconds(1))
  #expect(clock.sleeperCount == 0)  // woken, and on its way to refresh
  try await clock.waitForSleepers()  // asleep again, after its refresh
  #expect(refresher.refreshes.withLock { $0 } == 1)

  task.cancel()
  await #expect(throws: CancellationError.self) { try await task.value }
  #expect(clock.pendingCount == 0)  // the cancelled sleep left no work behind
}
