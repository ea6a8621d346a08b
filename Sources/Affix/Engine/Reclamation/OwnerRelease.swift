internal import AffixRuntimeShims
import Dispatch

/// Where what the library keeps for an isolation is released: there, whoever drops the last
/// reference.
///
/// An ``IsolationBound`` value and an ``IsolatedCallback`` body (with what it captured) may hold
/// non-`Sendable` state of their isolation, and a `deinit` is code that may touch that state.
/// When the holder's last reference goes on its isolation (the common case: a main-actor view
/// drops its callback on the main queue) the value goes there at once, with no lock and no
/// allocation. When it goes anywhere else (the background sweeper releasing a dead host's
/// values, a detached task, another actor, a frame thread, another value's `deinit`), the
/// holder's `deinit` moves the value into a box and hands the box to its isolation's queue
/// here, and the isolation releases it:
/// - the main actor: a block of the main queue, one scheduled at a time, releases what
///   waits (``drainMain()``); a sweep made on the main queue releases it too;
/// - another actor: a task on that actor, one scheduled at a time per actor.
///
/// The thread that drops never waits for the isolation (no `sync`), no `deinit` runs under the
/// queue's lock (a drain takes its batch under the lock and releases it after unlocking), and
/// a `deinit` that a drain runs may drop more, which waits for the next drain.
///
/// **An isolation that never runs again.** A release waits for its isolation: a program whose
/// main queue is never drained (a Linux command-line program that neither calls
/// `dispatch_main()` nor runs an `async` entry point or a run loop) keeps what it hands the main
/// actor, and runs none of it elsewhere. A process that exits does not run what waits, as it
/// runs no other `deinit` then; the child of a `fork` (where Dispatch does not work) keeps what
/// it hands over.
///
/// **Bounded.** What waits is what was dropped while its isolation was busy: each item is the
/// value the holder already kept, plus a box. A drain takes everything that waits, so the queue
/// never holds more than one isolation's busy spell of drops; ``backlog`` reports the peak,
/// and a benchmark figure shows it under a storm of dying hosts with slow `deinit`s.
package enum OwnerRelease {
  private struct ActorQueue {
    let actor: any Actor
    /// Retained addresses of boxes waiting for `actor`.
    var objects: [UInt]
  }

  private struct State {
    /// Retained addresses of boxes waiting for the main queue.
    var main: [UInt] = []
    /// Whether a block of the main queue will release `main`.
    var mainScheduled = false
    /// Boxes waiting for other actors, by actor; an entry exists while a task is scheduled.
    var actors: [ObjectIdentifier: ActorQueue] = [:]
    var waiting = 0
    var peak = 0

    mutating func noteArrival() {
      waiting += 1
      if waiting > peak { peak = waiting }
    }
  }

  private static let state = Locked(State(), processWide: .ownerRelease)

  /// A value moved out of its holder, released when the box is.
  private final class Box<Value> {
    let value: Value
    init(_ value: consuming Value) { self.value = value }
  }

  /// Whether the caller runs in `isolation`, so that a release here is a release there. For the
  /// main actor, the main queue (as ``IsolatedCallback/runsInline``); for another actor, its
  /// executor running the caller. No lock, no allocation.
  @inline(__always)
  package static func isCurrent(_ isolation: any Actor) -> Bool {
    if isolation === MainActor.shared { return MainQueue.isCurrent }
    // `UnownedSerialExecutor` is the runtime's `SerialExecutorRef`: an identity and a word.
    let (identity, implementation) = unsafeBitCast(
      isolation.unownedExecutor, to: (UnsafeRawPointer?, UInt).self)
    return affix_is_current_executor(identity, implementation)
  }

  /// Hands `value`, whose holder dies off `isolation`, to `isolation` to be released there.
  /// Called from the holder's `deinit` when ``isCurrent(_:)`` is false, with the holder's
  /// reference moved out: once the box is queued, the isolation may release it at any moment,
  /// and its release must be the last.
  static func handOver<Value>(_ value: consuming Value, to isolation: any Actor) {
    // One statement: no reference to the box but the queue's outlives it.
    let bits = UInt(bitPattern: Unmanaged.passRetained(Box(consume value) as AnyObject).toOpaque())
    if isolation === MainActor.shared {
      let schedules = state.withLock { state in
        state.main.append(bits)
        state.noteArrival()
        defer { state.mainScheduled = true }
        return !state.mainScheduled
      }
      // Dispatch does not work in the child of a fork: what it hands over waits there.
      guard schedules, !Engine.isForkChild else { return }
      DispatchQueue.main.async { drainMain() }
      return
    }
    let id = ObjectIdentifier(isolation)
    let schedules = state.withLock { state in
      state.noteArrival()
      if state.actors[id] != nil {
        state.actors[id]?.objects.append(bits)
        return false
      }
      state.actors[id] = ActorQueue(actor: isolation, objects: [bits])
      return true
    }
    guard schedules, !Engine.isForkChild else { return }
    Task { await drain(on: isolation) }
  }

  /// Releases what waits for the main queue; on the main queue. What it releases and drops
  /// more waits for the next block.
  package static func drainMain() {
    let batch = state.withLock { state in
      state.mainScheduled = false
      state.waiting -= state.main.count
      defer { state.main = [] }
      return state.main
    }
    release(batch)
  }

  /// Releases what waits for `actor`, on it; what it releases and drops more waits for the
  /// next task.
  private static func drain(on actor: isolated any Actor) {
    let id = ObjectIdentifier(actor)
    let batch = state.withLock { state in
      let objects = state.actors.removeValue(forKey: id)?.objects ?? []
      state.waiting -= objects.count
      return objects
    }
    release(batch)
  }

  private static func release(_ batch: [UInt]) {
    guard !batch.isEmpty else { return }
    affix_release_begin()
    defer { affix_release_end() }
    for bits in batch {
      // Retained box addresses, never 0.
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        .release()
    }
  }

  /// How many releases wait for their isolation now, and the most that ever waited at once.
  package static var backlog: Backlog {
    state.withLock { Backlog(now: $0.waiting, peak: $0.peak) }
  }

  /// Starts the peak of ``backlog`` again from what waits now: for a benchmark's run.
  package static func resetPeak() {
    state.withLock { $0.peak = $0.waiting }
  }
}
