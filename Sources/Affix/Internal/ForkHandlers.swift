internal import AffixRuntimeShims
import Synchronization

/// Keeps the core usable in the child of `fork()`, as allocators do: before the fork, the
/// forking thread takes every lock of the core's shared state, so that none is held by a
/// thread that will not exist in the child; after it, both processes release them, and the
/// child forgets the read sections and releases that other threads had under way.
///
/// What the child cannot do (Docs/Architecture.md, "After fork()"): use a host whose storage
/// another thread was writing at the fork (that storage's lock stays held), or rely on
/// Dispatch, which does not work in the child of a multithreaded process: there, values are
/// released by `sweep()` and by writers past the retirement bound, never in the background.
enum ForkHandlers {
  private static let isChildOfFork = Atomic<Bool>(false)

  /// Whether this process is the child of a fork made after the core started.
  static var isChild: Bool { isChildOfFork.load(ordering: .relaxed) }

  /// Registers the handlers once; called by the lazy initializers of the shared state.
  static func register() {
    affix_register_fork_handlers(
      { ForkHandlers.prepare() }, { ForkHandlers.parent() }, { ForkHandlers.child() })
  }

  // In the order the core nests them: a pass holds the table's lock while it queues what it
  // swept, and a writer past the retirement bound holds its shard's lock while it counts its
  // release under way in the release queue.
  private static func prepare() {
    HostTable.lockForFork()
    WeakHostTable.lockForFork()
    Retirement.lockForFork()
    ReleaseQueue.lockForFork()
  }

  private static func parent() {
    ReleaseQueue.unlockAfterFork()
    Retirement.unlockAfterFork()
    WeakHostTable.unlockAfterFork()
    HostTable.unlockAfterFork()
  }

  private static func child() {
    affix_reclamation_after_fork_in_child()
    isChildOfFork.store(true, ordering: .relaxed)
    parent()
    ReleaseQueue.resetInChild()
    Retirement.resetInChild()
  }
}
