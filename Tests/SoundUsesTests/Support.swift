import AffixScheduling
import Synchronization

/// Runs `body` in the caller's isolation while a detached task advances `clock` one interval
/// at a time, as a display link or a timer's thread does: what falls due fires there, on no
/// actor of the tests' hosts, while `body` drives those hosts and awaits them. Virtual time
/// goes on until `body` returns, so no wait depends on how fast the machine is.
nonisolated(nonsending) func whileTicking<Result>(
  _ clock: VirtualClock, every interval: Duration = .seconds(1) / 60,
  _ body: () async -> Result
) async -> Result {
  let stop = Flag()
  let ticker = Task.detached {
    while !stop.isRaised {
      clock.advance(by: interval)
      await Task.yield()
    }
  }
  let result = await body()
  stop.raise()
  await ticker.value
  return result
}

/// A flag one task raises and others read.
final class Flag: Sendable {
  private let raised = Atomic<Bool>(false)

  func raise() {
    raised.store(true, ordering: .releasing)
  }

  var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// Yields in the caller's isolation until `done` holds, or the task is cancelled (as a suite's
/// time limit cancels it): the work queued there (deliveries, host writes) runs in between. No
/// count of yields bounds it, as a machine busy elsewhere may need any number of them.
nonisolated(nonsending) func yield(until done: () async -> Bool) async {
  while !Task.isCancelled, await !done() {
    await Task.yield()
  }
}
