internal import Affix

extension VirtualClock {
  /// The tasks sleeping on a virtual clock, and the tasks waiting for them to start.
  struct Sleepers {
    var count = 0
    var nextWaiterID: UInt64 = 0
    /// Waiters whose continuation is not stored yet.
    var arriving: Set<UInt64> = []
    /// Waiters cancelled before their continuation was stored.
    var cancelled: Set<UInt64> = []
    var waiters: [UInt64: (count: Int, continuation: UnsafeContinuation<Void, any Error>)] = [:]

    /// Counts a sleeper in and returns the waiters it satisfies, to resume outside the lock.
    mutating func start() -> [UnsafeContinuation<Void, any Error>] {
      count += 1
      let satisfied = waiters.filter { $0.value.count <= count }
      for id in satisfied.keys { waiters[id] = nil }
      return satisfied.values.map(\.continuation)
    }
  }

  /// The number of tasks sleeping on this clock now: each one's wake-up is among the
  /// ``pendingCount`` actions.
  ///
  /// A sleeper leaves the count when ``advance(by:)`` reaches its deadline (before its task
  /// resumes) or when its task is cancelled.
  public var sleeperCount: Int {
    sleepers.withLock { $0.count }
  }

  /// Suspends the calling task until the clock's time reaches `deadline`.
  ///
  /// It waits until a call to ``advance(by:)``, ``advance(to:)`` or
  /// ``runUntilIdle(maxSteps:)`` gets there.
  ///
  /// The sleeper's wake-up is an action like any other: due work runs in order of due time,
  /// outside the scheduler's lock, on the thread that advances. That thread resumes the
  /// task, which then runs on its own executor. A deadline already reached returns at once.
  ///
  /// ```swift
  /// let clock = VirtualClock()
  /// let task = Task { try await clock.sleep(for: .seconds(1)) }
  /// try await clock.waitForSleepers()  // the task has reached its sleep
  /// clock.advance(by: .seconds(1))     // and is resumed
  /// try await task.value
  /// ```
  ///
  /// - Parameters:
  ///   - deadline: The instant on this clock to sleep until.
  ///   - tolerance: Ignored: virtual time has no slack.
  /// - Throws: `CancellationError` if the task is cancelled before or while it sleeps; the
  ///   sleeper is then removed from the clock.
  public func sleep(until deadline: SchedulingInstant, tolerance: Duration? = nil) async throws {
    try await ScheduledSleep.sleep(
      on: self, until: deadline,
      didStart: { [sleepers] in
        for waiter in sleepers.withLock({ $0.start() }) { waiter.resume() }
      },
      didEnd: { [sleepers] in sleepers.withLock { $0.count -= 1 } })
  }

  /// Suspends the calling task until at least `count` tasks sleep on this clock.
  ///
  /// A test starts the code under test in a task, waits here until that code has reached its
  /// sleep, and only then advances the clock: advancing earlier would move time past a
  /// sleeper that has not yet registered. No polling and no real time are involved: the
  /// sleeper that makes the count resumes the waiter.
  ///
  /// ```swift
  /// let poller = Task { try await poll(every: .seconds(5), on: clock) }
  /// try await clock.waitForSleepers()
  /// clock.advance(by: .seconds(5))  // one more refresh, then the next sleep
  /// ```
  ///
  /// - Parameter count: The number of sleepers to wait for; 1 by default.
  /// - Throws: `CancellationError` if the waiting task is cancelled first.
  public func waitForSleepers(_ count: Int = 1) async throws {
    try Task.checkCancellation()
    let id = sleepers.withLock { sleepers in
      defer { sleepers.nextWaiterID += 1 }
      sleepers.arriving.insert(sleepers.nextWaiterID)
      return sleepers.nextWaiterID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        let outcome = sleepers.withLock { sleepers -> Result<Void, any Error>? in
          sleepers.arriving.remove(id)
          if sleepers.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if sleepers.count >= count { return .success(()) }
          sleepers.waiters[id] = (count, continuation)
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = sleepers.withLock { sleepers -> UnsafeContinuation<Void, any Error>? in
        if sleepers.arriving.remove(id) != nil { sleepers.cancelled.insert(id) }
        return sleepers.waiters.removeValue(forKey: id)?.continuation
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
