public import Affix

/// Runs actions later, once or repeatedly, on a clock of its own.
///
/// Every scheduled action is represented by the `CancellationToken` it returns:
///
/// - Cancelling the token before the action starts guarantees that it never runs; for a
///   repeating timer, that its next firing never runs.
/// - Cancelling is idempotent and safe from any thread.
/// - Dropping the last reference to the token cancels the work, unless the token was detached
///   with `detach()`. Keep the token for as long as the work should live.
///
/// Actions run on the scheduler's context: a ``DispatchScheduler`` runs them on its queue, a
/// ``VirtualTimeScheduler`` on the thread that advances it.
///
/// ```swift
/// let scheduler: any SchedulingClock = DispatchScheduler.main
/// let token = scheduler.schedule(after: .milliseconds(300)) { print("still working...") }
/// // The work finished early: nothing is printed.
/// token.cancel()
/// ```
///
/// Every scheduler is also a `Clock` whose instants are ``SchedulerInstant``s: async code that
/// sleeps with `try await clock.sleep(for:)` or `Task.sleep(for:tolerance:clock:)` sleeps on
/// the scheduler's time, so a test that hands it a ``VirtualTimeScheduler`` decides when the
/// sleep ends. A conforming type gets ``sleep(until:tolerance:)`` and ``minimumResolution``
/// from the scheduler's own ``schedule(after:_:)``.
public protocol SchedulingClock: AnyObject, Clock where Instant == SchedulerInstant {
  /// The current instant on this scheduler's clock.
  var now: SchedulerInstant { get }

  /// Runs `action` once, `delay` from now.
  ///
  /// A zero or negative delay runs the action as soon as possible: it is never run inline,
  /// always later on the scheduler's context.
  ///
  /// - Parameters:
  ///   - delay: How long to wait before running `action`.
  ///   - action: The work to run.
  /// - Returns: A token that cancels the action; dropping it cancels too, unless detached.
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> CancellationToken

  /// Runs `action` every `interval`, the first time after `delay`.
  ///
  /// - Parameters:
  ///   - interval: The time between firings; it must be positive.
  ///   - delay: How long to wait before the first firing: one `interval` if `nil`; a negative
  ///     delay fires as soon as possible.
  ///   - action: The work to run at each firing.
  /// - Returns: A token that stops the timer; dropping it stops it too, unless detached.
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  func scheduleRepeating(
    every interval: Duration, after delay: Duration?,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken
}

extension SchedulingClock {
  /// Runs `action` every `interval`, the first time one `interval` from now.
  ///
  /// ```swift
  /// let ticker = try scheduler.scheduleRepeating(every: .milliseconds(50)) { spin() }
  /// ```
  ///
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  public func scheduleRepeating(
    every interval: Duration, _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    try scheduleRepeating(every: interval, after: nil, action)
  }
}
