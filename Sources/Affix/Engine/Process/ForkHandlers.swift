internal import AffixRuntimeShims
import Synchronization

/// Keeps the core usable in the child of `fork()`, as allocators do: before the fork, the
/// forking thread takes every lock of the core's shared state, so that none is held by a
/// thread that will not exist in the child; after it, the parent unlocks them, the child makes
/// them unlocked anew (``ProcessLocks/reinitializeAllInChild()``), and the child forgets the
/// read sections and releases that other threads had under way.
///
/// The child does not unlock: the same code runs on every platform, and on Apple platforms a
/// lock is an `os_unfair_lock`, whose unlock by a thread other than the owner its word names
/// stops the process (libplatform's `os_unfair_lock_unlock`). The child's thread is not the
/// parent's. jemalloc's `malloc_mutex_postfork_child` initializes its mutexes anew for the
/// same reason.
///
/// A storage's lock is not among them: storages are too many to take before every fork. One
/// that another thread was writing at the fork stays locked in the child, its entries as that
/// write left them; a read there takes no lock (`AssociationStorage.payloadBitsInChildOfFork`)
/// and reads each value as it was before that write or after it.
///
/// What the child cannot do (Docs/Internals/Reads.md, "After `fork()`"): write to a host whose
/// storage another thread was writing at the fork, list its keys or capabilities, or rely on
/// Dispatch, which does not work in the child of a multithreaded process: there, values are
/// released by `sweep()` and by writers past the retirement bound, never in the background.
enum ForkHandlers {
  private static let isChildOfFork = Atomic<Bool>(false)

  /// Whether this process is the child of a fork made after the core started.
  static var isChild: Bool { isChildOfFork.load(ordering: .relaxed) }

  /// Installs the handlers once; called when the first process-wide lock joins ``ProcessLocks``.
  static func register() { _ = installed }

  // A lazy global: Swift runs its initializer once, so the C side's handler pointers are
  // written by one thread only (two first locks joining at once raced on them).
  private static let installed: Void = affix_register_fork_handlers(
    { ForkHandlers.prepare() }, { ForkHandlers.parent() }, { ForkHandlers.child() })

  // Every process-wide lock of the core, in the order they nest (``ProcessLocks``).
  private static func prepare() {
    // Sets the main queue's key now, in the parent: the child's retirements ask for it, and
    // setting it there would be a Dispatch call in the child.
    _ = MainQueue.isCurrent
    // What the child's handler uses is made here, in the parent: made in the child, it could
    // ask the Swift runtime for type metadata under a lock another thread held at the fork.
    ReleaseQueue.prepareForFork()
    _ = Retirement.shards
    ProcessLocks.lockAll()
  }

  private static func parent() {
    ProcessLocks.unlockAll()
  }

  private static func child() {
    affix_reclamation_after_fork_in_child()
    isChildOfFork.store(true, ordering: .relaxed)
    ProcessLocks.reinitializeAllInChild()
    ReleaseQueue.resetInChild()
    Retirement.resetInChild()
  }
}
