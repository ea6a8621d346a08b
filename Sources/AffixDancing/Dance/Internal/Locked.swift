import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// State behind a one-word spin lock, for critical sections of a few dozen instructions that
/// never block and never run user code.
///
/// Every running animation takes its dancer's lock once a frame; this machine's `Mutex` costs
/// several times an uncontended compare-and-swap, which alone would exceed the frame budget
/// per property. The thread sanitizer also sees these atomics, which it cannot do for `Mutex`
/// on Linux. Contention spins briefly, then yields, so a preempted holder is not starved.
final class Locked<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `word`.
  private let word = Atomic<UInt32>(0)
  // The lock already makes every access exclusive; the runtime's exclusivity bookkeeping would
  // add its cost to each frame of each animation.
  @exclusivity(unchecked) private var state: State

  init(_ state: State) {
    self.state = state
  }

  @inline(__always)
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockContended()
    }
    defer { word.store(0, ordering: .releasing) }
    return try body(&state)
  }

  private func lockContended() {
    var attempts = 0
    while true {
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
      attempts += 1
      if attempts > 64 {
        sched_yield()
      }
    }
  }
}
