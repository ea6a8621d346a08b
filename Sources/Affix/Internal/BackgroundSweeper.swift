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
    let (seconds, attoseconds) = interval.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    DispatchQueue.global(qos: .utility).asyncAfter(
      deadline: .now() + .nanoseconds(nanoseconds)
    ) {
      run(after: interval)
    }
  }

  private static func run(after interval: Duration) {
    let (swept, hostsLeft) = HostTable.sweepInBackground()
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
