internal import AffixRuntimeShims
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The storages of dead hosts, taken off the tables and waiting to be released, and the
/// releases under way, of storages and of retired objects (see ``Retirement``).
///
/// Releasing a storage releases its values, whose `deinit`s are user code: they run outside
/// every lock, and never on the thread of a caller who only wrote a value. A write that sweeps
/// along queues what it swept and leaves it to a Dispatch thread; ``AssociationTable/sweep()``
/// and the background sweeper release on their own threads, which asked for it.
///
/// Every release is counted as under way from the moment its work leaves a queue until its
/// `deinit`s have returned, with a ticket in the order releases began, so that `sweep()` can
/// wait for the releases other threads began before it, and for no later one: "sweep, then
/// check that the values are gone" holds whoever took them off the table, and a sweep returns
/// however fast other threads keep writing.
enum ReleaseQueue {
  private struct State {
    var pending: [Unmanaged<AssociationStorage>] = []
    var drainScheduled = false
    var nextTicket = 0
    /// Releases under way: their tickets, with the thread of each.
    var underWay: [Int: UInt] = [:]
  }

  private static let state = Locked(State(), processWide: .releaseQueue)

  /// How long ``releaseAllAndWait()`` waits for releases under way on other threads. A value's
  /// `deinit` that itself waits for a `sweep()` on another thread would otherwise deadlock
  /// with it; past this, `sweep()` returns and says so.
  static let waitLimit: Duration = .seconds(2)

  /// Queues storages swept off a table, under the table's lock: a sweep that starts after the
  /// table's lock is released finds them here, never in neither place. Returns whether the
  /// caller should schedule a drain (see ``scheduleDrain()``), which must happen unlocked.
  static func enqueue(_ swept: [Unmanaged<AssociationStorage>]) -> Bool {
    guard !swept.isEmpty else { return false }
    return state.withLock { state in
      state.pending.append(contentsOf: swept)
      guard !state.drainScheduled else { return false }
      state.drainScheduled = true
      return true
    }
  }

  /// Releases the queue on a Dispatch thread of its own.
  static func scheduleDrain() {
    // Dispatch does not work in the child of a fork, where sweeps release instead.
    guard !ForkHandlers.isChild else { return }
    DispatchQueue.global(qos: .utility).async {
      releaseAll()
    }
  }

  /// Counts a release as under way on this thread; returns its ticket for ``endRelease(_:)``.
  static func beginRelease() -> Int {
    let thread = currentThreadID()
    return state.withLock { state in
      let ticket = state.nextTicket
      state.nextTicket += 1
      state.underWay[ticket] = thread
      return ticket
    }
  }

  /// Ends the release counted by `ticket`.
  static func endRelease(_ ticket: Int) {
    _ = state.withLock { $0.underWay.removeValue(forKey: ticket) }
  }

  /// Releases retired objects and queued storages on this thread until the queue is empty:
  /// the background drain.
  static func releaseAll() {
    Retirement.drain(includingMain: false)
    while let (storage, ticket) = takeStorage() {
      release(storage)
      endRelease(ticket)
    }
  }

  private static func release(_ storage: Unmanaged<AssociationStorage>) {
    affix_release_begin()
    defer { affix_release_end() }
    storage.release()
  }

  /// Releases on this thread what is queued now, storages and retired objects (the main
  /// queue's retired objects only when called on the main queue; otherwise they go to the
  /// main queue), then waits until the releases other threads began before this call took its
  /// work have returned, or until ``waitLimit`` has passed: such a release may hold work queued
  /// before the call. Work queued after the call, and releases begun after its takes, are left
  /// to others.
  ///
  /// Releases under way on this thread are not waited for: a `sweep()` from a value's `deinit`
  /// is part of them. Returns the first ticket it did not wait for.
  @discardableResult
  static func releaseAllAndWait() -> Int {
    let thread = currentThreadID()
    let (storages, ticket) = state.withLock { state in
      defer { state.pending = [] }
      let ticket = state.nextTicket
      state.nextTicket += 1
      state.underWay[ticket] = thread
      return (state.pending, ticket)
    }
    // Read right after the takes, before the grace period and the deinits: a release that
    // took work before them was counted under way before its own take (a storage's under the
    // queue's lock, retired objects before their shards' locks), so its ticket is below the
    // bound, and one that began later, while this call releases, is not waited for.
    var bound = 0
    let isMainQueue = MainQueue.isCurrent
    Retirement.drain(includingMain: isMainQueue) {
      bound = state.withLock { $0.nextTicket }
    }
    for storage in storages { release(storage) }
    endRelease(ticket)

    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: waitLimit)
    var attempts = 0
    while state.withLock({ $0.underWay.contains { $0.key < bound && $0.value != thread } }) {
      if clock.now >= deadline {
        Diagnostics.report(
          subsystem: "associations",
          message: "sweep() returned while a release that another thread began before it was still "
            + "running after \(waitLimit); a value's deinit may be waiting for this sweep")
        return bound
      }
      attempts += 1
      if attempts < 64 { affix_yield() } else { affix_sleep_microseconds(1_000) }
    }
    // A drain waited for may have taken the main queue's retired objects and handed them back
    // to it, and the releases may have handed main-actor values over (see `OwnerRelease`): on
    // the main queue they are released here, not by a main-queue block that runs only once
    // this caller yields.
    if isMainQueue {
      Retirement.releaseMainReady()
      OwnerRelease.drainMain()
    }
    return bound
  }

  /// The next queued storage, counted as under way on this thread; nil once the queue is
  /// empty, which also lets the next enqueue schedule a drain, whoever emptied it: a drain
  /// scheduled meanwhile finds nothing, which is harmless.
  private static func takeStorage() -> (Unmanaged<AssociationStorage>, Int)? {
    let thread = currentThreadID()
    return state.withLock { state in
      guard let storage = state.pending.popLast() else {
        state.drainScheduled = false
        return nil
      }
      let ticket = state.nextTicket
      state.nextTicket += 1
      state.underWay[ticket] = thread
      return (storage, ticket)
    }
  }

  // MARK: fork

  /// An empty table made in the parent, before a fork (``prepareForFork()``): making one in
  /// the child could ask the Swift runtime for the dictionary's metadata, under a lock another
  /// thread of the parent may have held at the fork.
  private static let noneUnderWay: [Int: UInt] = [:]

  /// Before a fork, in the parent: makes what ``resetInChild()`` uses, the queue's state too
  /// (a lazy global, first made where it is first used).
  static func prepareForFork() {
    _ = noneUnderWay
    _ = state
  }

  /// In the child of a fork: the releases other threads had under way will never end there.
  static func resetInChild() {
    state.withLock { state in
      state.underWay = noneUnderWay
      state.drainScheduled = false
    }
  }
}

/// A word that names the calling thread while it runs.
func currentThreadID() -> UInt {
  threadWord(pthread_self())
}

// `pthread_t` is an integer on Glibc and a pointer on Darwin and Musl: one overload fits each.
private func threadWord(_ thread: UInt) -> UInt { thread }
private func threadWord(_ thread: OpaquePointer) -> UInt { UInt(bitPattern: thread) }
private func threadWord<Pointee>(_ thread: UnsafeMutablePointer<Pointee>) -> UInt {
  UInt(bitPattern: thread)
}
