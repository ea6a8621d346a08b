extension SchedulingClock {
  /// The smallest step of a scheduler's clock: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// Suspends the calling task until the scheduler's clock reaches `deadline`.
  ///
  /// The task is resumed by an action scheduled with ``schedule(after:_:)``: on a
  /// ``DispatchClock``'s queue when its timer fires, on a ``VirtualClock`` when a
  /// test advances it past `deadline`. A deadline already reached returns at once.
  ///
  /// ```swift
  /// func poll(every interval: Duration, on clock: some Clock<Duration>) async throws {
  ///   while !Task.isCancelled {
  ///     refresh()
  ///     try await clock.sleep(for: interval)
  ///   }
  /// }
  /// try await poll(every: .seconds(5), on: DispatchClock.main)
  /// ```
  ///
  /// - Parameters:
  ///   - deadline: The instant on this scheduler's clock to sleep until.
  ///   - tolerance: Ignored: a scheduler's actions run at their due time.
  /// - Throws: `CancellationError` if the task is cancelled before or while it sleeps; the
  ///   scheduled action is cancelled with it.
  public func sleep(until deadline: SchedulingInstant, tolerance: Duration? = nil) async throws {
    try await ScheduledSleep.sleep(on: self, until: deadline)
  }
}
