import Synchronization

/// The core's process-wide locks, in one list that every such lock joins when it is created,
/// so that the fork handlers take them all and the list cannot drift from the code.
///
/// A lock shared by the whole process (a `static let` of ``Locked``, a retirement shard) is
/// created with its ``Rank``: `Locked(state, processWide: .diagnosticsHandler)`. CI refuses a
/// `static let` lock in the core that does not join (`.ci/process-locks.sh`). The list is
/// append-only and lock-free, so that joining never waits on the fork handlers, whatever lock
/// the joining thread holds.
///
/// Only the core's locks join: the mixins run on Dispatch, which does not work in the child
/// of a multithreaded process, so the child cannot use them whatever their locks' state.
enum ProcessLocks {
  /// Where a lock sits in the order the core nests them: code that holds a lock may take one
  /// of a later rank, never of an earlier one, so the fork handlers take them in this order.
  enum Rank: Int, Sendable {
    /// `HostTable`'s pass: held while a pass takes the writer's lock, chunk by chunk.
    case hostTablePass
    /// `HostTable`'s writer: held while a pass queues what it swept for release.
    case hostTableWriter
    /// `ForeignPins`' counts.
    case foreignPins
    /// `WeakHostTable`'s entries.
    case weakHostTable
    /// `Retirement`'s shards: a writer past the bound holds one while it counts its release.
    case retirementShard
    /// `ReleaseQueue`'s state.
    case releaseQueue
    /// `DeallocationHooks`' side table: a leaf.
    case deallocationHooks
    /// `CapabilityKey`'s types, taken on every `attach`: a leaf.
    case capabilityTypes
    /// `CapabilityLifecycle`'s capabilities being attached, taken on every `attach` and end: a
    /// leaf.
    case capabilityLifecycle
    /// `KeyRegistry`'s reported keys, taken on a key's first diagnostic: a leaf.
    case keyReports
    /// `Diagnostics`' global handler, taken on every report: a leaf.
    case diagnosticsHandler
    /// `OwnerRelease`'s queues, taken by a `deinit` that hands a value to its isolation: a leaf.
    case ownerRelease
  }

  /// One lock in the list: immutable but for whether the fork handlers hold it.
  final class Member: Sendable {
    let rank: Rank
    let lock: @Sendable () -> Void
    let unlock: @Sendable () -> Void
    /// Makes the lock unlocked anew in the child of a fork (``SpinLock/reinitializeInChildOfFork()``),
    /// where no thread owns it: an unlock there is an unlock by a thread that is not the owner.
    let reinitialize: @Sendable () -> Void
    let next: Member?
    /// Set by the handler before the fork, for the handlers after it: a lock that joins
    /// during the fork is not held, and must not be unlocked.
    let isHeldForFork = Atomic<Bool>(false)

    init(
      rank: Rank, next: Member?, lock: @escaping @Sendable () -> Void,
      unlock: @escaping @Sendable () -> Void, reinitialize: @escaping @Sendable () -> Void
    ) {
      self.rank = rank
      self.next = next
      self.lock = lock
      self.unlock = unlock
      self.reinitialize = reinitialize
    }
  }

  /// The newest member; members are never released.
  private static let head = Atomic<Unmanaged<Member>?>(nil)

  /// Adds a lock to the list, and installs the fork handlers on the first call.
  static func join(
    _ rank: Rank, lock: @escaping @Sendable () -> Void, unlock: @escaping @Sendable () -> Void,
    reinitialize: @escaping @Sendable () -> Void
  ) {
    ForkHandlers.register()
    var current = head.load(ordering: .acquiring)
    while true {
      let member = Unmanaged.passRetained(
        Member(
          rank: rank, next: current?.takeUnretainedValue(), lock: lock, unlock: unlock,
          reinitialize: reinitialize))
      let (exchanged, found) = head.compareExchange(
        expected: current, desired: member, ordering: .acquiringAndReleasing)
      if exchanged { return }
      member.release()
      current = found
    }
  }

  /// Every member, in the order they nest: by rank, then in the order they joined.
  static var members: [Member] {
    var members: [Member] = []
    var next = head.load(ordering: .acquiring)?.takeUnretainedValue()
    while let member = next {
      members.append(member)
      next = member.next
    }
    members.reverse()
    // A stable sort keeps the joining order within a rank.
    return members.enumerated()
      .sorted { ($0.element.rank.rawValue, $0.offset) < ($1.element.rank.rawValue, $1.offset) }
      .map(\.element)
  }

  /// Before a fork: takes every lock, in order.
  static func lockAll() {
    for member in members {
      member.lock()
      member.isHeldForFork.store(true, ordering: .relaxed)
    }
  }

  /// After a fork, in the parent: releases what ``lockAll()`` took, in reverse order.
  static func unlockAll() {
    for member in members.reversed()
    where member.isHeldForFork.exchange(false, ordering: .relaxed) {
      member.unlock()
    }
  }

  /// After a fork, in the child: makes what ``lockAll()`` took unlocked anew, without unlocking
  /// it. The thread that took the locks in the parent is not this one (on Apple platforms an
  /// `os_unfair_lock` would stop the process on an unlock by another thread), and no other
  /// thread exists here to hold one or wait for it.
  ///
  /// By index, not through `reversed()`: a child's first use of a generic type at a line asks
  /// the Swift runtime for its metadata, which takes the runtime's conformance lock, and another
  /// thread of the parent may have held that lock at the fork (a child hung there).
  static func reinitializeAllInChild() {
    var index = members.count
    while index > 0 {
      index -= 1
      let member = members[index]
      if member.isHeldForFork.exchange(false, ordering: .relaxed) { member.reinitialize() }
    }
  }
}

extension Locked {
  /// Creates a process-wide lock around `state`, which joins ``ProcessLocks`` at `rank`.
  convenience init(_ state: State, processWide rank: ProcessLocks.Rank) {
    self.init(state)
    ProcessLocks.join(
      rank, lock: { self.lock.lock() }, unlock: { self.lock.unlock() },
      reinitialize: { self.lock.reinitializeInChildOfFork() })
  }
}

extension LockedState {
  /// Creates a process-wide lock of the face around `state`, which joins ``ProcessLocks`` at
  /// `rank`; read it with `withLockUnchecked`.
  convenience init(unchecked state: State, processWide rank: ProcessLocks.Rank) {
    self.init(unchecked: state)
    ProcessLocks.join(
      rank, lock: { self.lock.lock() }, unlock: { self.lock.unlock() },
      reinitialize: { self.lock.reinitializeInChildOfFork() })
  }
}

extension Locked where State == Void {
  /// Runs `body` under a lock that guards no state of its own. Unlike `withLock`, no access
  /// to the empty state: the thread sanitizer reports those accesses as races.
  @inline(__always)
  func whileLocked<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
