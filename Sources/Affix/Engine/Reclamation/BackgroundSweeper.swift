import Dispatch
import Synchronization

/// Releases dead hosts' values within a bounded time when nobody writes or sweeps: a burst of
/// hosts that dies while the program goes on without making new ones would otherwise keep its
/// values for good.
///
/// It runs on a Dispatch queue of utility quality, where the values it releases run their
/// `deinit`s. It is scheduled when a host enters a table and none is scheduled, sweeps on the
/// cadence of ``SweepCadence``, and stops, with no wake-ups at all, once the tables hold no
/// host.
enum BackgroundSweeper {
  private static let isScheduled = Atomic<Bool>(false)
  /// How many callers are inside ``whileHeld(_:)``.
  private static let holds = Atomic<Int>(0)

  /// Runs `body` with no background sweep starting meanwhile (one already under way finishes):
  /// dead hosts' values wait for ``HostTable/sweep()``. The cadence goes on, so sweeps resume
  /// when the last hold ends.
  static func whileHeld<Result>(_ body: () throws -> Result) rethrows -> Result {
    holds.add(1, ordering: .sequentiallyConsistent)
    defer { holds.subtract(1, ordering: .sequentiallyConsistent) }
    return try body()
  }

  /// Called after a host enters a table: schedules a sweep unless one is. One relaxed load when
  /// one is.
  static func noteHost() {
    // Dispatch does not work in the child of a fork: sweeps there are the caller's.
    guard !isScheduled.load(ordering: .relaxed), !ForkHandlers.isChild else { return }
    guard
      isScheduled.compareExchange(expected: false, desired: true, ordering: .acquiring)
        .exchanged
    else { return }
    schedule(after: SweepCadence.first)
  }

  private static func schedule(after interval: Duration) {
    // One of the cadence's constants below: whole milliseconds, far from overflowing.
    DispatchQueue.global(qos: .utility).asyncAfter(
      deadline: .now() + .nanoseconds(Int(interval / .nanoseconds(1)))
    ) {
      run(after: interval)
    }
  }

  /// A background sweep, unless one is held (see ``whileHeld(_:)``): how many hosts it swept
  /// and whether any is left, or nil when held.
  static func sweepUnlessHeld() -> (swept: Int, hostsLeft: Bool)? {
    guard holds.load(ordering: .sequentiallyConsistent) == 0 else { return nil }
    return HostTable.sweepInBackground()
  }

  private static func run(after interval: Duration) {
    guard let (swept, hostsLeft) = sweepUnlessHeld() else {
      schedule(after: interval)
      return
    }
    if let next = SweepCadence.next(after: interval, swept: swept, hostsLeft: hostsLeft) {
      schedule(after: next)
      return
    }
    isScheduled.store(false, ordering: .releasing)
    // A host that entered after the count was read saw a sweep scheduled and scheduled none.
    if HostTable.sweepInBackground().hostsLeft { noteHost() }
  }
}

/// When the background sweeper runs next.
package enum SweepCadence {
  /// The wait before the first sweep after a host enters an empty table.
  package static let first: Duration = .milliseconds(500)

  /// The wait after a sweep that found dead hosts: more may follow them.
  package static let shortest: Duration = .milliseconds(250)

  /// The longest wait, while sweeps find nothing: a dead host's values are released at most
  /// about this long after it dies.
  package static let longest: Duration = .seconds(2)

  /// The wait before the next sweep, or nil when no host is left to watch.
  package static func next(after interval: Duration, swept: Int, hostsLeft: Bool) -> Duration? {
    guard hostsLeft else { return nil }
    return swept > 0 ? shortest : min(interval * 2, longest)
  }
}
