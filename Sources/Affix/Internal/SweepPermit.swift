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

/// Counts the pins that ``WeakReference``s hold on objects, so that a sweep can tell a host
/// whose deinit has finished (its unowned count is then exactly its pins) from one still
/// inside it. A pin is counted only after it is taken and uncounted before it is dropped, so a
/// count read concurrently never makes a live host look dead.
enum ForeignPins {
  private static let counts = Locked<[UInt: Int]>([:])

  static func add(_ object: UnsafeMutableRawPointer) {
    counts.withLock { $0[UInt(bitPattern: object), default: 0] += 1 }
  }

  static func remove(_ object: UnsafeMutableRawPointer) {
    counts.withLock { counts in
      let key = UInt(bitPattern: object)
      let remaining = (counts[key] ?? 1) - 1
      counts[key] = remaining > 0 ? remaining : nil
    }
  }

  static func count(at object: UnsafeMutableRawPointer) -> Int {
    counts.withLock { $0[UInt(bitPattern: object)] ?? 0 }
  }
}
