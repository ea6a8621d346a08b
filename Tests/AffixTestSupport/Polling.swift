import Affix
import Dispatch
import Foundation

/// Polls `condition` until it holds, sleeping a millisecond in between; false if it does not
/// within `timeout` (a deadline for a hang, never a measure of speed: a slow machine only
/// polls longer).
///
/// With `blockingEventually`, where the tests wait on real time, so that every such wait is
/// bounded the same way. Runs in its caller's isolation, so that `condition` may read the
/// caller's state.
///
/// Only the time the poller runs counts toward `timeout` (see `PollingBudget`): a poller whose
/// thread other tests keep busy, or whose condition waits for them, still polls the whole
/// budget once it runs, so that what it waits for gets the same chance to happen.
package nonisolated(nonsending) func eventually(
  timeout: Duration = .seconds(10), _ condition: () async -> Bool
) async -> Bool {
  var budget = PollingBudget(timeout)
  while budget.remains() {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return await condition()
}

/// Polls `condition` on the caller's thread until it holds, sleeping the thread a millisecond
/// in between; false if it does not within `timeout`.
///
/// The blocking twin of `eventually`, for a synchronous test that must stay on its thread
/// while it waits (one that compares the thread things happen on with its own, say): an
/// `await` could resume it on another. A name of its own, not an overload: in an `async`
/// caller an overload would win over `eventually` for a closure without `await`, and block a
/// thread of the cooperative pool.
package func blockingEventually(
  timeout: Duration = .seconds(10), _ condition: () -> Bool
) -> Bool {
  var budget = PollingBudget(timeout)
  while budget.remains() {
    if condition() { return true }
    Thread.sleep(forTimeInterval: 0.001)
  }
  return condition()
}

/// The time a poller has left: the time it ran, not the time that passed.
///
/// A round of polling (a check and a millisecond's sleep) counts for what it took, up to
/// `longestRound`; past that the poller was not running (its thread waited for others, or the
/// check waited for a release another test holds), and the rest of the round is not counted.
/// So a wait starved by parallel tests does not fail for it, while a hang still ends: every
/// round counts at least the millisecond it slept, so a budget of `timeout` ends after at most
/// `timeout / 1 ms` rounds.
package struct PollingBudget {
  /// The most a round counts for.
  static let longestRound: Duration = .milliseconds(50)

  private var left: Duration
  private var roundStarted = ContinuousClock.now

  package init(_ timeout: Duration) { left = timeout }

  /// Counts the round since the last call and tells whether budget is left for another.
  package mutating func remains() -> Bool {
    let now = ContinuousClock.now
    left -= min(now - roundStarted, Self.longestRound)
    roundStarted = now
    return left > .zero
  }
}

/// Whether the caller runs on the main queue, the main actor's executor (which, under an
/// `async` entry point on Linux, is not the process's first thread, so `Thread.isMainThread`
/// cannot tell).
package func isOnMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Made and set on the main queue at the first check, from whichever thread makes it.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the object `read` returns is gone, as a test expects once the object's last owner
/// has let go: asked at once on the pinned path.
///
/// On the weak path (`AFFIX_HOST_MODE=weak` or `hooked`), a sweep tells a dead host by loading
/// its weak reference, which holds a live host for the instant of the load; a host whose owner
/// lets go in that instant goes a moment later, on the sweeping thread, and its values with the
/// sweep after. There this sweeps until the object is gone, within `blockingEventually`'s
/// deadline.
package func isDeallocated(_ read: () -> AnyObject?) -> Bool {
  guard HostKind.everyHostIsWeak else { return read() == nil }
  return blockingEventually {
    _ = AssociationTable.sweep()
    return read() == nil
  }
}
