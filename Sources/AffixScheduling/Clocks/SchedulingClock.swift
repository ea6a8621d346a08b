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
/// Actions run on the scheduler's context: a ``DispatchClock`` runs them on its queue, a
/// ``VirtualClock`` on the thread that advances it.
///
/// ```swift
/// let scheduler: any SchedulingClock = DispatchClock.main
/// let token = scheduler.schedule(after: .milliseconds(300)) { print("still working...") }
/// // The work finished early: nothing is printed.
/// token.cancel()
/// ```
///
/// Every scheduler is also a `Clock` whose instants are ``SchedulingInstant``s: async code that
/// sleeps with `try await clock.sleep(for:)` or `Task.sleep(for:tolerance:clock:)` sleeps on
/// the scheduler's time, so a test that hands it a ``VirtualClock`` decides when the
/// sleep ends. A conforming type gets ``sleep(until:tolerance:)`` and ``minimumResolution``
/// from the scheduler's own ``schedule(after:_:)``.
public protocol SchedulingClock: AnyObject, Clock where Instant == SchedulingInstant {
  /// The current instant on this scheduler's clock.
  var now: SchedulingInstant { get }

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
  /// An interval below ``minimumRepeatInterval`` is raised to it and reported through
  /// `Diagnostics` (subsystem `"scheduling"`): call ``scheduleRepeating(every:fileID:line:_:)``
  /// for the report to name your line.
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
  /// The shortest interval a repeating timer runs at: one microsecond.
  ///
  /// A shorter interval asks for the impossible. A Dispatch timer cannot wake more often than
  /// its handler runs (a wake-up and a queue hop take microseconds), so it would only run its
  /// action back to back and starve its queue; a virtual clock advanced by one second would run
  /// its action 10^18 times for an attosecond. At the floor a virtual second costs a million
  /// firings, and a real timer is already far faster than any frame, tick or poll needs.
  public static var minimumRepeatInterval: Duration { .microseconds(1) }

  /// Runs `action` every `interval`, the first time one `interval` from now.
  ///
  /// ```swift
  /// let ticker = try scheduler.scheduleRepeating(every: .milliseconds(50)) { spin() }
  /// ```
  ///
  /// An interval below ``minimumRepeatInterval`` is raised to it and reported through
  /// `Diagnostics` (subsystem `"scheduling"`) with the caller's `fileID` and `line`.
  ///
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  public func scheduleRepeating(
    every interval: Duration, fileID: String = #fileID, line: Int = #line,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    try scheduleRepeating(
      every: Self.usableRepeatInterval(interval, fileID: fileID, line: line), after: nil, action)
  }

  /// `interval`, raised to ``minimumRepeatInterval`` with a report if it is positive and
  /// shorter; a zero or negative interval is returned as it is, for the scheduler to refuse.
  static func usableRepeatInterval(_ interval: Duration, fileID: String, line: Int) -> Duration {
    guard interval > .zero, interval < minimumRepeatInterval else { return interval }
    Diagnostics.report(
      subsystem: "scheduling",
      message:
        "A repeating timer cannot fire every \(interval); it fires every "
        + "\(minimumRepeatInterval), the shortest interval a timer runs at.",
      fileID: fileID, line: line)
    return minimumRepeatInterval
  }
}
