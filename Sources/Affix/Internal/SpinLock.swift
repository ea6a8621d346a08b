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
struct SpinLock: ~Copyable, Sendable {
  @usableFromInline
  let word = Atomic<UInt32>(0)

  @usableFromInline
  init() {}

  @inlinable @inline(__always)
  func lock() {
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

  @inlinable @inline(__always)
  func unlock() {
    word.store(0, ordering: .releasing)
  }

  @inlinable @inline(__always)
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
