public import Affix

/// A scheduler whose clock moves only when you advance it: deterministic time for tests.
///
/// Nothing runs until you call ``advance(by:)``, ``advance(to:)`` or ``runUntilIdle(maxSteps:)``.
/// Then due work runs on the calling thread, one action at a time, in order of due time and,
/// for equal times, in the order it was scheduled. While an action runs, ``now`` is its due
/// time, the scheduler's lock is not held, and the action may schedule or cancel other work:
/// newly scheduled work that falls due within the window being advanced runs in the same call.
/// As with a Dispatch timer, a repeating action never runs again before its last run returned,
/// even when two threads advance the clock at once.
///
/// ```swift
/// let scheduler = VirtualClock()
/// let firings = LockedState<[SchedulingInstant]>([])
/// let timer = try scheduler.scheduleRepeating(every: .milliseconds(50)) {
///   firings.withLock { $0.append(scheduler.now) }
/// }
/// scheduler.advance(by: .milliseconds(120))  // fires at t+0.05 and t+0.1
/// scheduler.pendingCount                     // 1: the timer's next firing, at t+0.15
/// timer.cancel()
/// ```
///
/// It is also a `Clock`: async code that sleeps on it with `try await clock.sleep(for:)` or
/// `Task.sleep(for:tolerance:clock:)` wakes when a test advances it past the deadline. A test
/// waits with ``waitForSleepers(_:)`` until the code under test has reached its sleep, then
/// advances.
public final class VirtualClock: SchedulingClock {
  private struct Job {
    var action: @Sendable () -> Void
    var interval: Duration?
  }

  private struct Entry: Comparable {
    var due: SchedulingInstant
    var sequence: UInt64
    var id: UInt64

    static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.due, lhs.sequence) < (rhs.due, rhs.sequence)
    }
  }

  private struct State {
    var now: SchedulingInstant
    var nextSequence: UInt64 = 0
    var queue = MinimumHeap<Entry>()
    // Cancelled work leaves its entry in the queue and only its job here is removed; entries
    // without a job are skipped when popped, and swept when they outnumber the live ones.
    var jobs: [UInt64: Job] = [:]

    mutating func makeSequence() -> UInt64 {
      defer { nextSequence += 1 }
      return nextSequence
    }

    mutating func insert(_ job: Job, due: SchedulingInstant) -> UInt64 {
      let id = makeSequence()
      jobs[id] = job
      queue.insert(Entry(due: due, sequence: id, id: id))
      return id
    }

    mutating func removeJob(_ id: UInt64) -> Job? {
      let job = jobs.removeValue(forKey: id)
      if queue.count > 2 * jobs.count + 64 {
        let live = jobs
        queue.filter { live[$0.id] != nil }
      }
      return job
    }

    /// The first live entry, after discarding cancelled ones.
    mutating func firstLiveEntry() -> Entry? {
      while let first = queue.first {
        if jobs[first.id] != nil { return first }
        _ = queue.popFirst()
      }
      return nil
    }

    /// Takes the next action due at or before `limit` (any time if `nil`) and moves the clock
    /// to its due time. For a repeating timer it also returns the entry of its next firing,
    /// numbered now so that it keeps its place among equal due times, to be put back with
    /// `rearm(_:)` once the action has returned: so a timer's action never runs again before
    /// its last run returned, even when two threads advance the clock.
    mutating func takeNextAction(dueBy limit: SchedulingInstant?) -> (
      action: @Sendable () -> Void, next: Entry?
    )? {
      guard let entry = firstLiveEntry(), limit.map({ entry.due <= $0 }) ?? true,
        let job = jobs[entry.id]
      else { return nil }
      _ = queue.popFirst()
      now = max(now, entry.due)
      guard let interval = job.interval else {
        jobs[entry.id] = nil
        return (job.action, nil)
      }
      let due = entry.due + interval
      // At the last instant there is, a timer's next firing saturates to the same instant; it
      // would fire for ever there. It never fires again (cancelling it still releases it).
      guard due > entry.due else { return (job.action, nil) }
      return (job.action, Entry(due: due, sequence: makeSequence(), id: entry.id))
    }

    /// Puts a repeating timer's next firing in the queue, unless it was cancelled meanwhile.
    mutating func rearm(_ next: Entry) {
      if jobs[next.id] != nil { queue.insert(next) }
    }
  }

  private let state: LockedState<State>
  let sleepers = LockedState(Sleepers())

  /// Creates a scheduler whose clock starts at `now` and stays there until advanced.
  public init(now: SchedulingInstant = .zero) {
    state = LockedState(State(now: now))
  }

  /// The scheduler's virtual time: while an action runs, the instant it was due.
  public var now: SchedulingInstant {
    state.withLock { $0.now }
  }

  /// The number of actions waiting to run, counting each live repeating timer once.
  public var pendingCount: Int {
    state.withLock { $0.jobs.count }
  }

  /// When the next pending action is due, or `nil` if nothing is pending.
  public var nextDueInstant: SchedulingInstant? {
    state.withLock { $0.firstLiveEntry()?.due }
  }

  /// Schedules `action` to run when the clock reaches ``now`` + `delay`.
  ///
  /// A zero or negative delay makes it due now: it runs at the next advance, even by zero.
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> CancellationToken
  {
    let id = state.withLock { state in
      state.insert(Job(action: action), due: state.now + max(delay, .zero))
    }
    return token(for: id)
  }

  /// Schedules `action` to run every `interval`, the first time after `delay` (one `interval`
  /// if `nil`; a negative delay makes it due now).
  ///
  /// An interval below ``SchedulingClock/minimumRepeatInterval`` is raised to it and reported.
  ///
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  public func scheduleRepeating(
    every interval: Duration, after delay: Duration?,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    guard interval > .zero else { throw .nonPositiveInterval(interval) }
    let interval = Self.usableRepeatInterval(interval, fileID: #fileID, line: #line)
    let id = state.withLock { state in
      state.insert(
        Job(action: action, interval: interval), due: state.now + max(delay ?? interval, .zero))
    }
    return token(for: id)
  }

  /// Moves the clock forward by `duration`, running every action due up to the new time.
  ///
  /// A negative duration is treated as zero: time never goes back, but work already due runs.
  /// The clock stops at the last instant a `Duration` can express rather than overflowing.
  public func advance(by duration: Duration) {
    advance(to: now + max(duration, .zero))
  }

  /// Moves the clock forward to `instant`, running every action due up to it; afterwards
  /// ``now`` equals `instant`.
  ///
  /// An instant in the past leaves the clock where it is, but work already due runs.
  public func advance(to instant: SchedulingInstant) {
    while let (action, next) = state.withLock({ $0.takeNextAction(dueBy: instant) }) {
      action()
      if let next { state.withLock { $0.rearm(next) } }
    }
    state.withLock { $0.now = max($0.now, instant) }
  }

  /// Runs pending actions in order, moving the clock to each one's due time, until nothing is
  /// pending or `maxSteps` actions have run.
  ///
  /// A live repeating timer is never idle, so with one the call stops after `maxSteps`.
  ///
  /// - Returns: The number of actions that ran.
  @discardableResult
  public func runUntilIdle(maxSteps: Int = 10_000) -> Int {
    var steps = 0
    while steps < maxSteps, let (action, next) = state.withLock({ $0.takeNextAction(dueBy: nil) }) {
      action()
      if let next { state.withLock { $0.rearm(next) } }
      steps += 1
    }
    return steps
  }

  private func token(for id: UInt64) -> CancellationToken {
    CancellationToken { [weak self] in
      // Released here, outside the lock: dropping the action may run user deinits.
      let job = self?.state.withLock { $0.removeJob(id) }
      withExtendedLifetime(job) {}
    }
  }
}
