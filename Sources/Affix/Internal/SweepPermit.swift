import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lets one thread at a time take dead hosts off the table and release them.
///
/// Without it, a sweep could return while another thread is still releasing hosts it took a
/// moment earlier, and "sweep, then check that the values are gone" would be a race. A sweep
/// started from a value's `deinit` during another sweep on the same thread goes ahead: the
/// outer one already holds the permit.
struct SweepPermit {
  private static let holder = Atomic<UInt>(0)

  private let owns: Bool

  /// Waits for the permit, unless this thread already holds it.
  static func acquire() -> SweepPermit {
    let me = currentThread()
    if holder.load(ordering: .acquiring) == me { return SweepPermit(owns: false) }
    var attempts = 0
    while !holder.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
      attempts += 1
      if attempts > 64 { sched_yield() }
    }
    return SweepPermit(owns: true)
  }

  /// The permit if no thread holds it, else nil.
  static func tryAcquire() -> SweepPermit? {
    let me = currentThread()
    guard holder.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged else {
      return nil
    }
    return SweepPermit(owns: true)
  }

  func release() {
    if owns { Self.holder.store(0, ordering: .releasing) }
  }

  private static func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
