public import Affix
public import Dispatch

/// A scheduler that runs its actions on a Dispatch queue, the main queue by default.
///
/// Delayed actions are `DispatchWorkItem`s submitted with `asyncAfter(deadline:)`; repeating
/// actions are `DispatchSourceTimer`s. Its clock counts the time elapsed since the scheduler was
/// created, on the monotonic uptime clock.
///
/// ```swift
/// let scheduler = DispatchScheduler(queue: DispatchQueue(label: "work"))
/// let token = scheduler.schedule(after: .seconds(1)) { print("one second later") }
/// ```
public final class DispatchScheduler: SchedulingClock {
  /// The queue every action of this scheduler runs on.
  public let queue: DispatchQueue

  private let epoch: UInt64

  /// Creates a scheduler whose actions run on `queue`.
  public init(queue: DispatchQueue = .main) {
    self.queue = queue
    epoch = DispatchTime.now().uptimeNanoseconds
  }

  /// A scheduler on the main queue.
  public static let main = DispatchScheduler()

  /// The time elapsed since this scheduler was created.
  public var now: SchedulerInstant {
    let elapsed = DispatchTime.now().uptimeNanoseconds &- epoch
    return SchedulerInstant(sinceEpoch: .nanoseconds(elapsed))
  }

  /// Runs `action` once on ``queue``, `delay` from now.
  ///
  /// A zero or negative delay submits the action to run as soon as the queue gets to it.
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> CancellationToken
  {
    let work = DispatchWork(action: action, repeats: false)
    let item = DispatchWorkItem { work.fire() }
    work.setWorkItem(item)
    queue.asyncAfter(deadline: Self.deadline(after: delay), execute: item)
    return CancellationToken { work.cancel() }
  }

  /// Runs `action` on ``queue`` every `interval`, the first time after `delay` (one `interval`
  /// if `nil`).
  ///
  /// - Throws: ``SchedulingError/nonPositiveInterval(_:)`` if `interval` is zero or negative.
  public func scheduleRepeating(
    every interval: Duration, after delay: Duration?,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    guard interval > .zero else { throw .nonPositiveInterval(interval) }
    let work = DispatchWork(action: action, repeats: true)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    // Sub-nanosecond intervals still have to move Dispatch's clock forward.
    let step = max(interval.saturatingNanoseconds, 1)
    timer.schedule(
      deadline: Self.deadline(after: delay ?? interval),
      repeating: .nanoseconds(Int(clamping: step)), leeway: .nanoseconds(0))
    timer.setEventHandler { work.fire() }
    work.setTimer(timer)
    timer.resume()
    return CancellationToken { work.cancel() }
  }

  private static func deadline(after delay: Duration) -> DispatchTime {
    let wait = UInt64(max(delay.saturatingNanoseconds, 0))
    let (deadline, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(wait)
    return overflow ? .distantFuture : DispatchTime(uptimeNanoseconds: deadline)
  }
}
