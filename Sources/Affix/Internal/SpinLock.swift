public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A one-word lock for critical sections of a few dozen instructions that never block.
///
/// The per-host storage takes a lock on every write and every read of an object value; this
/// machine's `Mutex` costs several times an uncontended compare-and-swap there. Contention
/// spins briefly, then yields the processor, so a preempted holder is not starved. Never held
/// while user code runs.
@usableFromInline
package struct SpinLock: ~Copyable, Sendable {
  @usableFromInline
  let word = Atomic<UInt32>(0)

  /// An unlocked lock.
  @inlinable
  package init() {}

  /// Takes the lock, spinning and then yielding while another thread holds it.
  @inlinable @inline(__always)
  package func lock() {
    if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockContended()
    }
  }

  @usableFromInline
  func lockContended() {
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

  /// Releases the lock.
  @inlinable @inline(__always)
  package func unlock() {
    word.store(0, ordering: .releasing)
  }

  /// Runs `body` under the lock.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// State guarded by a ``SpinLock``: the lock for shared state in every Affix module.
///
/// Affix does not use `Synchronization.Mutex` where it matters: on Linux the thread sanitizer
/// cannot see its locking and reports every critical section as a race, which would blind the
/// sanitizer to real ones, and on this toolchain it costs several times a compare-and-swap.
/// For critical sections of a few dozen instructions that never block and run no user code.
package final class Locked<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `lock`.
  @usableFromInline
  let lock = SpinLock()

  // The lock already makes every access exclusive; the runtime's exclusivity bookkeeping
  // would only add its cost.
  @usableFromInline
  @exclusivity(unchecked) var state: State

  /// Creates the lock around `state`.
  package init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with the state, under the lock. `body` must not block or run user code.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

}
