import Affix
import AffixScheduling
import Dispatch

/// A Dispatch scheduler whose clock runs `speed` times faster than real time.
///
/// Every scene sees scene time: a 2 s animation lasts 2 s at speed 1 and 20 ms at speed 100,
/// with the same frames, steps and output, which is what lets the tests run the real demo fast.
final class ScaledScheduler: SchedulingClock {
  let base: DispatchClock
  let speed: Double

  init(queue: DispatchQueue, speed: Double) {
    base = DispatchClock(queue: queue)
    self.speed = speed
  }

  var now: SchedulingInstant {
    SchedulingInstant(sinceEpoch: base.now.sinceEpoch * speed)
  }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> CancellationToken
  {
    base.schedule(after: delay / speed, action)
  }

  func scheduleRepeating(
    every interval: Duration, after delay: Duration?,
    _ action: @escaping @Sendable () -> Void
  ) throws(SchedulingError) -> CancellationToken {
    guard interval > .zero else { throw .nonPositiveInterval(interval) }
    // Dispatch needs at least a nanosecond to move forward, whatever the speed.
    let realInterval = max(interval / speed, .nanoseconds(1))
    return try base.scheduleRepeating(
      every: realInterval, after: delay.map { $0 / speed }, action)
  }
}
