internal import AffixRuntimeShims
// Public although no public API names it: `@inlinable` code below, specialized into callers,
// uses `Atomic`, and inlinable code may only use what is imported publicly.
public import Synchronization

/// A one-word lock for critical sections of a few dozen instructions that run no user code.
///
/// The per-host storage takes a lock on every write and every read of an object value; this
/// toolchain's `Mutex` costs several times an uncontended compare-and-swap there, so the
/// uncontended path here is one compare-and-swap to lock and one exchange to unlock, inlined.
///
/// Contention, on Linux: spin a little with the processor's pause hint (the holder is most
/// likely a few instructions from unlocking), then sleep on a futex, so that a waiter neither
/// burns a core nor starves a preempted holder, however long it waits. The word is 0
/// (unlocked), 1 (locked) or 2 (locked, and a thread may be asleep on it): an unlock wakes a
/// thread only from 2, so the uncontended unlock makes no system call. A woken thread takes
/// the lock as 2, since it cannot know whether it was the last sleeper. Sleepers are woken
/// in the order they slept; a running thread may still take the lock first, as with every
/// futex lock, which keeps the lock's throughput under contention.
///
/// On Apple platforms the word is an `os_unfair_lock`: it records its owner, so that a waiter
/// of higher priority lends the owner its priority instead of sleeping (or, worse, spinning)
/// behind a thread that never gets scheduled: the inversion for which `OSSpinLock` was
/// deprecated.
@usableFromInline
package struct SpinLock: ~Copyable, Sendable {
  // An `Atomic`, so that its address is stable while the lock is borrowed (a raw-layout type
  // is never moved in memory while borrowed), for the futex and the unfair lock to sleep on;
  // and so that the thread sanitizer sees every acquire and release of the lock on Linux.
  @usableFromInline
  let word = Atomic<UInt32>(0)

  /// An unlocked lock.
  @inlinable
  package init() {}

  #if canImport(Darwin)
    // Not inlinable: the shim's module is imported internally, and `os_unfair_lock_lock` is a
    // call either way.

    /// Takes the lock, sleeping while another thread holds it.
    @usableFromInline
    package func lock() {
      withUnsafePointer(to: word) { affix_unfair_lock(UnsafeMutableRawPointer(mutating: $0)) }
    }

    /// Releases the lock, which this thread holds.
    @usableFromInline
    package func unlock() {
      withUnsafePointer(to: word) { affix_unfair_unlock(UnsafeMutableRawPointer(mutating: $0)) }
    }
  #else
    /// Takes the lock, sleeping while another thread holds it.
    @inlinable @inline(__always)
    package func lock() {
      if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        lockContended()
      }
    }

    @usableFromInline
    func lockContended() {
      var state = spin()
      if state == 0 {
        let (exchanged, current) = word.compareExchange(
          expected: 0, desired: 1, ordering: .acquiring)
        if exchanged { return }
        state = current
      }
      while true {
        // From here on this thread may sleep, so it takes the lock as 2: its own unlock then
        // wakes any thread that slept meanwhile.
        if state != 2, word.exchange(2, ordering: .acquiring) == 0 { return }
        Parking.park(on: word, while: 2)
        state = spin()
      }
    }

    /// Spins while the lock is held with no thread asleep on it, for a bounded time; returns
    /// the word last seen.
    @usableFromInline
    func spin() -> UInt32 {
      var remaining = 100
      while true {
        let state = word.load(ordering: .relaxed)
        if state != 1 || remaining == 0 { return state }
        affix_spin_pause()
        remaining -= 1
      }
    }

    /// Releases the lock, which this thread holds.
    @inlinable @inline(__always)
    package func unlock() {
      // An exchange rather than a store: the unlock must learn, in the same step that frees the
      // word, whether a thread went to sleep on it; a store followed by a load could miss one.
      if word.exchange(0, ordering: .releasing) == 2 {
        unlockContended()
      }
    }

    @usableFromInline
    func unlockContended() {
      Parking.unparkOne(on: word)
    }

    /// Whether a thread may be asleep on the lock (the word is 2), for tests.
    package var mayHaveSleepers: Bool {
      word.load(ordering: .relaxed) == 2
    }
  #endif

  /// Makes the lock unlocked anew, in the child of a fork, whatever thread of the parent held
  /// it: what allocators do in their child handlers (jemalloc's `malloc_mutex_postfork_child`
  /// initializes its mutexes again rather than unlocking them).
  ///
  /// An unlock would not do on Apple platforms: the word of an `os_unfair_lock` holds its
  /// owner's thread port, and libplatform's `os_unfair_lock_unlock` stops the process
  /// (`_os_unfair_lock_unowned_abort`, "Unlock of an os_unfair_lock not owned by current
  /// thread") when the word it clears is not the calling thread's port. The child's one thread
  /// is not the thread the parent's word names. `OS_UNFAIR_LOCK_INIT` is the word 0, which is
  /// also the futex lock's unlocked state, so this is one store on every platform.
  ///
  /// Only in the child of a fork, where no other thread exists to hold the lock or sleep on it.
  package func reinitializeInChildOfFork() {
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

/// Sleeping until a 32-bit word changes, for the locks and waits of the core.
package enum Parking {
  /// Sleeps while `word` holds `expected`; may return early (spuriously, or on a signal):
  /// callers check their condition again.
  package static func park(on word: borrowing Atomic<UInt32>, while expected: UInt32) {
    #if os(Linux) || canImport(Darwin)
      withUnsafePointer(to: word) { affix_park(UnsafeMutableRawPointer(mutating: $0), expected) }
    #else
      // No system call to sleep on an address here: yield and let the caller check again.
      if word.load(ordering: .relaxed) == expected { affix_yield() }
    #endif
  }

  /// Wakes one thread parked on `word`.
  package static func unparkOne(on word: borrowing Atomic<UInt32>) {
    #if os(Linux) || canImport(Darwin)
      withUnsafePointer(to: word) { affix_unpark_one(UnsafeMutableRawPointer(mutating: $0)) }
    #endif
  }

  /// Wakes every thread parked on `word`.
  package static func unparkAll(on word: borrowing Atomic<UInt32>) {
    #if os(Linux) || canImport(Darwin)
      withUnsafePointer(to: word) { affix_unpark_all(UnsafeMutableRawPointer(mutating: $0)) }
    #endif
  }
}

/// State guarded by a ``SpinLock``: the engine's own lock, ``LockedState``'s without its
/// `sending` checks.
///
/// The engine keeps closures and references in its locks that it hands out by design (storages
/// queued for release, retired payloads), each argued where it is kept. Everything outside
/// `Sources/Affix/Engine/` locks with ``LockedState``: the public API for a mixin, and its
/// package-visible unchecked view (`init(unchecked:)`, `withLockUnchecked`) for the face's own
/// state that hands such things out (an observer copied out to be called after unlocking).
///
/// Affix does not use `Synchronization.Mutex` where it matters: on Linux the thread sanitizer
/// cannot see its locking and reports every critical section as a race, which would blind the
/// sanitizer to real ones, and on this toolchain it costs several times a compare-and-swap.
package final class Locked<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `lock`.
  @usableFromInline
  let lock = SpinLock()

  @usableFromInline
  @exclusivity(unchecked) var state: State

  /// Creates the lock around `state`.
  package init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with the state, under the lock, and returns what it returns. `body` must not
  /// block, take this lock again, or run user code.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
