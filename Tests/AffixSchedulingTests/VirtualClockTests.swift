import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

@Suite struct VirtualClockTests {
  let scheduler = VirtualClock()

  @Test(
    "due work runs in order of time, then of insertion",
    arguments: [
      [30, 10, 10, 0],
      [5, 5, 5, 5],
      [40, 30, 20, 10],
      [0, 20, 0, 20, 10],
    ])
  func dueWorkRunsInTimeThenInsertionOrder(delaysInMilliseconds: [Int]) {
    let order = Recording<Int>()
    let tokens = delaysInMilliseconds.enumerated().map { index, delay in
      scheduler.schedule(after: .milliseconds(delay)) { order.append(index) }
    }
    scheduler.advance(by: .milliseconds(40))
    let expected = delaysInMilliseconds.enumerated()
      .sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
      .map(\.offset)
    #expect(order.values == expected)
    withExtendedLifetime(tokens) {}
  }

  @Test func actionsSeeTheirDueTimeAsNow() {
    let seen = Recording<SchedulingInstant>()
    let scheduler = self.scheduler
    let first = scheduler.schedule(after: .milliseconds(10)) { seen.append(scheduler.now) }
    let second = scheduler.schedule(after: .milliseconds(25)) { seen.append(scheduler.now) }
    scheduler.advance(by: .milliseconds(100))
    #expect(seen.values == [.zero + .milliseconds(10), .zero + .milliseconds(25)])
    #expect(scheduler.now == .zero + .milliseconds(100))
    withExtendedLifetime((first, second)) {}
  }

  @Test func nothingRunsUntilTheClockIsAdvanced() {
    let ran = Recording<Int>()
    let token = scheduler.schedule(after: .zero) { ran.append(1) }
    #expect(ran.count == 0)
    #expect(scheduler.pendingCount == 1)
    scheduler.advance(by: .zero)
    #expect(ran.count == 1)
    withExtendedLifetime(token) {}
  }

  @Test func workScheduledByRunningWorkRunsInTheSameAdvanceWhenDue() {
    let order = Recording<String>()
    let scheduler = self.scheduler
    let inner = TokenBox()
    let outer = scheduler.schedule(after: .milliseconds(10)) {
      order.append("outer")
      inner.token = scheduler.schedule(after: .milliseconds(5)) { order.append("inner") }
    }
    let late = TokenBox()
    let other = scheduler.schedule(after: .milliseconds(12)) {
      order.append("other")
      late.token = scheduler.schedule(after: .milliseconds(50)) { order.append("late") }
    }
    scheduler.advance(by: .milliseconds(20))
    #expect(order.values == ["outer", "other", "inner"])
    #expect(scheduler.pendingCount == 1)
    #expect(scheduler.nextDueInstant == .zero + .milliseconds(62))
    withExtendedLifetime((outer, other)) {}
  }

  @Test func runningWorkCanCancelLaterWork() {
    let ran = Recording<String>()
    let later = scheduler.schedule(after: .milliseconds(20)) { ran.append("later") }
    let canceller = scheduler.schedule(after: .milliseconds(10)) {
      ran.append("canceller")
      later.cancel()
    }
    scheduler.advance(by: .seconds(1))
    #expect(ran.values == ["canceller"])
    #expect(scheduler.pendingCount == 0)
    withExtendedLifetime(canceller) {}
  }

  @Test func workCancelledBeforeItStartsNeverRuns() {
    let ran = Recording<Int>()
    let token = scheduler.schedule(after: .milliseconds(10)) { ran.append(1) }
    scheduler.advance(by: .milliseconds(9))
    token.cancel()
    #expect(token.isCancelled)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(ran.count == 0)
  }

  @Test func cancellingTwiceOrAfterRunningIsHarmless() {
    let ran = Recording<Int>()
    let done = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
    let kept = scheduler.schedule(after: .milliseconds(5)) { ran.append(2) }
    scheduler.advance(by: .milliseconds(2))
    done.cancel()
    done.cancel()
    #expect(scheduler.pendingCount == 1)
    scheduler.advance(by: .milliseconds(5))
    #expect(ran.values == [1, 2])
    withExtendedLifetime(kept) {}
  }

  @Test func cancellingFromOtherThreadsStopsEveryTask() {
    let ran = Recording<Int>()
    let tokens = (0..<1_000).map { index in
      scheduler.schedule(after: .milliseconds(index % 7)) { ran.append(index) }
    }
    DispatchQueue.concurrentPerform(iterations: tokens.count) { index in
      tokens[index].cancel()
      tokens[(index + 1) % tokens.count].cancel()
    }
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(ran.count == 0)
    #expect(scheduler.nextDueInstant == nil)
  }

  @Test func droppingTheTokenCancelsTheWork() {
    let ran = Recording<Int>()
    do {
      let token = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
      #expect(scheduler.pendingCount == 1)
      withExtendedLifetime(token) {}
    }
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(ran.count == 0)
  }

  @Test func detachedWorkRunsAfterItsTokenIsDropped() {
    let ran = Recording<Int>()
    do {
      let token = scheduler.schedule(after: .milliseconds(1)) { ran.append(1) }
      token.detach()
    }
    scheduler.advance(by: .seconds(1))
    #expect(ran.count == 1)
  }

  @Test func cancellingReleasesTheActionAndWhatItCaptures() {
    weak var released: Payload?
    let token: CancellationToken
    do {
      let payload = Payload()
      released = payload
      token = scheduler.schedule(after: .seconds(1)) { withExtendedLifetime(payload) {} }
    }
    #expect(released != nil)
    token.cancel()
    #expect(released == nil)
  }

  @Test func repeatingTimerFiresAtExactInstants() throws {
    let fired = Recording<SchedulingInstant>()
    let scheduler = self.scheduler
    let token = try scheduler.scheduleRepeating(
      every: .milliseconds(50), after: .milliseconds(20)
    ) { fired.append(scheduler.now) }
    scheduler.advance(by: .milliseconds(200))
    let expected = [20, 70, 120, 170].map { SchedulingInstant.zero + .milliseconds($0) }
    #expect(fired.values == expected)
    #expect(scheduler.pendingCount == 1)
    #expect(scheduler.nextDueInstant == .zero + .milliseconds(220))
    withExtendedLifetime(token) {}
  }

  @Test func repeatingTimerFirstFiresAfterOneIntervalByDefault() throws {
    let fired = Recording<SchedulingInstant>()
    let scheduler = self.scheduler
    let token = try scheduler.scheduleRepeating(every: .milliseconds(50)) {
      fired.append(scheduler.now)
    }
    scheduler.advance(by: .milliseconds(150))
    #expect(fired.values == [50, 100, 150].map { SchedulingInstant.zero + .milliseconds($0) })
    withExtendedLifetime(token) {}
  }

  @Test func repeatingTimerStopsWhenCancelled() throws {
    let fired = Recording<Int>()
    let token = try scheduler.scheduleRepeating(every: .milliseconds(10)) { fired.append(1) }
    scheduler.advance(by: .milliseconds(35))
    token.cancel()
    scheduler.advance(by: .seconds(1))
    #expect(fired.count == 3)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func repeatingTimerCanCancelItselfFromItsAction() throws {
    let fired = Recording<Int>()
    let box = TokenBox()
    box.token = try scheduler.scheduleRepeating(every: .milliseconds(10)) {
      fired.append(1)
      if fired.count == 2 { box.cancel() }
    }
    scheduler.advance(by: .seconds(1))
    #expect(fired.count == 2)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func repeatingTimersInterleaveByTimeThenInsertion() throws {
    let order = Recording<String>()
    let a = try scheduler.scheduleRepeating(every: .milliseconds(10)) { order.append("a") }
    let b = try scheduler.scheduleRepeating(every: .milliseconds(10)) { order.append("b") }
    let c = try scheduler.scheduleRepeating(every: .milliseconds(20)) { order.append("c") }
    scheduler.advance(by: .milliseconds(40))
    // A firing is queued again when it runs, so at 20 ms "c" (queued at 0) precedes "a" and "b"
    // (queued again at 10 ms).
    #expect(order.values == ["a", "b", "c", "a", "b", "a", "b", "c", "a", "b"])
    withExtendedLifetime((a, b, c)) {}
  }

  @Test(arguments: [Duration.zero, .milliseconds(-5), .seconds(-1_000_000)])
  func negativeOrZeroDelaysAreDueImmediately(delay: Duration) throws {
    let scheduler = self.scheduler
    scheduler.advance(by: .seconds(1))
    let fired = Recording<SchedulingInstant>()
    let once = scheduler.schedule(after: delay) { fired.append(scheduler.now) }
    let repeating = try scheduler.scheduleRepeating(every: .seconds(1), after: delay) {
      fired.append(scheduler.now)
    }
    scheduler.advance(by: .zero)
    #expect(fired.values == [.zero + .seconds(1), .zero + .seconds(1)])
    withExtendedLifetime((once, repeating)) {}
  }

  @Test func advanceEndsExactlyAtTheTarget() {
    scheduler.advance(by: .milliseconds(15))
    #expect(scheduler.now == .zero + .milliseconds(15))
    scheduler.advance(to: .zero + .seconds(2))
    #expect(scheduler.now == .zero + .seconds(2))
  }

  @Test func timeNeverGoesBackButDueWorkStillRuns() {
    scheduler.advance(by: .seconds(1))
    let ran = Recording<Int>()
    let token = scheduler.schedule(after: .zero) { ran.append(1) }
    scheduler.advance(to: .zero)
    scheduler.advance(by: .seconds(-1))
    #expect(scheduler.now == .zero + .seconds(1))
    #expect(ran.count == 1)
    withExtendedLifetime(token) {}
  }

  @Test func runUntilIdleRunsEverythingAndCountsIt() {
    let ran = Recording<Int>()
    let scheduler = self.scheduler
    let chained = TokenBox()
    let tokens = [
      scheduler.schedule(after: .seconds(3)) { ran.append(3) },
      scheduler.schedule(after: .seconds(1)) {
        ran.append(1)
        chained.token = scheduler.schedule(after: .seconds(10)) { ran.append(11) }
      },
    ]
    #expect(scheduler.pendingCount == 2)
    #expect(scheduler.nextDueInstant == .zero + .seconds(1))
    #expect(scheduler.runUntilIdle() == 3)
    #expect(ran.values == [1, 3, 11])
    #expect(scheduler.now == .zero + .seconds(11))
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.nextDueInstant == nil)
    withExtendedLifetime(tokens) {}
  }

  @Test func runUntilIdleStopsAfterMaxStepsWithALiveTimer() throws {
    let token = try scheduler.scheduleRepeating(every: .seconds(1)) {}
    #expect(scheduler.runUntilIdle(maxSteps: 25) == 25)
    #expect(scheduler.now == .zero + .seconds(25))
    #expect(scheduler.pendingCount == 1)
    withExtendedLifetime(token) {}
  }

  @Test func cancelledWorkNoLongerCountsAsPending() {
    let tokens = (0..<500).map { _ in scheduler.schedule(after: .seconds(1)) {} }
    #expect(scheduler.pendingCount == 500)
    for token in tokens.dropFirst() { token.cancel() }
    // Dropping a token cancels its work: the first must outlive the checks, which an
    // optimized build does not promise for a value past its last use.
    withExtendedLifetime(tokens) {
      #expect(scheduler.pendingCount == 1)
      #expect(scheduler.runUntilIdle() == 1)
    }
  }
}

/// A repeating timer's action never runs again before its last run returned, as a Dispatch
/// timer's handler never does, even when two threads advance the clock: a frame source's frames
/// come one after another however its scheduler is driven.
@Test func aRepeatingActionNeverOverlapsItselfWhenTwoThreadsAdvance() throws {
  let scheduler = VirtualClock()
  let running = Atomic(0)
  let mostAtOnce = Atomic(0)
  let runs = Atomic(0)
  let timer = try scheduler.scheduleRepeating(every: .milliseconds(1)) {
    let now = running.add(1, ordering: .relaxed).newValue
    mostAtOnce.max(now, ordering: .relaxed)
    // Some work, so that a second run would have a window to start in.
    var spin = 0
    for step in 0..<2_000 { spin &+= step }
    #expect(spin > 0)
    running.subtract(1, ordering: .relaxed)
    runs.add(1, ordering: .relaxed)
  }
  DispatchQueue.concurrentPerform(iterations: 2) { _ in
    for _ in 0..<500 { scheduler.advance(by: .milliseconds(1)) }
  }
  scheduler.advance(by: .zero)
  timer.cancel()
  #expect(mostAtOnce.load(ordering: .relaxed) == 1)
  // Every firing due by the time both threads were done ran, once.
  let due = Int((scheduler.now.sinceEpoch / .milliseconds(1)).rounded(.down))
  #expect(due >= 500)
  #expect(runs.load(ordering: .relaxed) == due)
}

@Test(arguments: [Duration.zero, .nanoseconds(-1), .seconds(-3)])
func nonPositiveRepeatIntervalIsRejectedWithAClearDiagnostic(interval: Duration) {
  let schedulers: [any SchedulingClock] = [
    VirtualClock(), DispatchClock(queue: DispatchQueue(label: "reject")),
  ]
  for scheduler in schedulers {
    #expect(throws: SchedulingError.nonPositiveInterval(interval)) {
      try scheduler.scheduleRepeating(every: interval) {}
    }
  }
  let message = SchedulingError.nonPositiveInterval(interval).description
  #expect(message.contains("positive interval"))
  #expect(message.contains("\(interval)"))
}

@MainActor @Suite struct AdvancingOnAnotherThreadTests {
  @Test func dueWorkRunsOffTheCallersQueueAndHasRunWhenItReturns() {
    let scheduler = VirtualClock()
    let ranOnTheMainQueue = Recording<Bool>()
    let tick = scheduler.schedule(after: .milliseconds(100)) {
      ranOnTheMainQueue.append(IsolatedCallback<Void>.runsInline(in: MainActor.shared))
    }
    scheduler.advanceOnAnotherThread(by: .milliseconds(100))
    #expect(ranOnTheMainQueue.values == [false])
    #expect(scheduler.now == .zero + .milliseconds(100))
    tick.cancel()
  }

  @Test func aCallMadeAfterItComesBetweenTheTicksCallsAndTheirRunning() async {
    let scheduler = VirtualClock()
    var writes: [String] = []
    let write = IsolatedCallback<String> { writes.append($0) }
    let tick = scheduler.schedule(after: .milliseconds(100)) { write("tick") }
    scheduler.advanceOnAnotherThread(by: .milliseconds(100))
    write("stop")
    #expect(writes.isEmpty)
    await write.delivered()
    #expect(writes == ["tick", "stop"])
    tick.cancel()
  }
}
