public import Affix
public import Dispatch

/// A scheduler that runs its actions on a Dispatch queue, the main queue by default.
///
/// Delayed actions are `DispatchWorkItem`s submitted with `asyncAfter(deadline:)`; repeating
/// actions are `DispatchSourceTimer`s. Its clock counts the time elapsed since the scheduler was
/// created, on the monotonic uptime clock.
///
/// ```swift
/// let scheduler = DispatchClock(queue: DispatchQueue(label: "work"))
/// let token = scheduler.schedule(after: .seconds(1)) { print("one second later") }
/// ```
public final class DispatchClock: SchedulingClock {
  /// The queue every action of this scheduler runs on.
  public let queue: DispatchQueue

  private let epoch: UInt64

  /// Creates a scheduler whose actions run on `queue`.
  public init(queue: DispatchQueue = .main) {
    self.queue = queue
    epoch = DispatchTime.now().uptimeNanoseconds
  }

  /// A scheduler on the main queue.
  public static let main = DispatchClock()

  /// The time elapsed since this scheduler was created.
  public var now: SchedulingInstant {
    let elapsed = DispatchTime.now().uptimeNanoseconds &- epoch
    return SchedulingInstant(sinceEpoch: .nanoseconds(elapsed))
  }

  /// Runs `action` once on ``queue``, `delay` from now.
  ///
  /// A zero or negative delay submits the action to run as soon as the queue gets to it. A
  /// delay whose deadline lies past what Dispatch can express (about 292 years of uptime) is
  /// never reached: the action waits until it is cancelled, and is not submitted at all.
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> CancellationToken
  {
    let work = DispatchWork(action: action, repeats: false)
    if let deadline = Self.deadline(after: delay) {
      let item = DispatchWorkItem { work.fire() }
      work.setWorkItem(item)
      queue.asyncAfter(deadline: deadline, execute: item)
    }
    return CancellationToken { work.cancel() }
  }

  /// Runs `action` on ``queue`` every `interval`, the first time after `delay` (one `interval`
  /// if `nil`).
  ///
  /// An interval below ``SchedulingClock/minimumRepeatInterval`` is raised to it and reported.
  /// A first firing past what Dispatch can express never comes.
  ///
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  public func scheduleRepeating(
    every interval: Duration, after delay: Duration?,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    guard interval > .zero else { throw .nonPositiveInterval(interval) }
    let interval = Self.usableRepeatInterval(interval, fileID: #fileID, line: #line)
    let work = DispatchWork(action: action, repeats: true)
    guard let deadline = Self.deadline(after: delay ?? interval) else {
      return CancellationToken { work.cancel() }
    }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(
      deadline: deadline, repeating: .nanoseconds(Int(clamping: interval.saturatingNanoseconds)),
      leeway: .nanoseconds(0))
    timer.setEventHandler { work.fire() }
    work.setTimer(timer)
    timer.resume()
    return CancellationToken { work.cancel() }
  }

  /// The Dispatch time `delay` from now, or `nil` when it lies past the last time Dispatch
  /// can express: a `dispatch_time_t` at or above 2^63 nanoseconds is read as a wall-clock
  /// time (and one in the past, at that), so such a deadline would fire at once.
  package static func deadline(
    after delay: Duration, now: UInt64 = DispatchTime.now().uptimeNanoseconds
  )
    -> DispatchTime?
  {
    let wait = UInt64(max(delay.saturatingNanoseconds, 0))
    let (deadline, overflow) = now.addingReportingOverflow(wait)
    guard !overflow, deadline < UInt64(Int64.max) else { return nil }
    return DispatchTime(uptimeNanoseconds: deadline)
  }
}
