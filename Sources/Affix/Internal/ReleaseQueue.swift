internal import AffixRuntimeShims
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The storages of dead hosts, taken off the tables and waiting to be released, the objects
/// writers replaced or removed, waiting for a grace period, and the releases under way.
///
/// Releasing a storage releases its values, whose `deinit`s are user code: they run outside
/// every lock, and never on the thread of a caller who only wrote a value. A write that sweeps
/// along queues what it swept and leaves it to a Dispatch thread; ``AssociationTable/sweep()``
/// and the background sweeper release on their own threads, which asked for it.
///
/// A replaced or removed object payload is *retired*: a reader without a lock may have loaded
/// its address a moment before the writer took it out (see `AssociationStorage.withPayloadBits`),
/// so the storage's reference to it is released only after a grace period
/// (`affix_synchronize`), in batches, by whoever drains the queue.
///
/// A release is counted as under way, per thread, from the moment it leaves the queue until its
/// `deinit`s have returned, so that `sweep()` can wait for the releases other threads started:
/// "sweep, then check that the values are gone" holds whoever took them off the table.
enum ReleaseQueue {
  private struct State {
    var pending: [Unmanaged<AssociationStorage>] = []
    /// Retained addresses of object payloads that left their storage, each the storage's own
    /// reference, to be released after a grace period.
    var retired: [UInt] = []
    /// Releases under way, by thread.
    var releasing: [UInt: Int] = [:]
    var drainScheduled = false
  }

  private static let state = Locked(State())

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

  /// Queues the storage's reference to an object payload that a writer took out of it, to be
  /// released once no reader can still be retaining it; schedules a drain if none is. Call
  /// with no lock held.
  static func retire(_ objectBits: UInt) {
    let drains = state.withLock { state in
      state.retired.append(objectBits)
      guard !state.drainScheduled else { return false }
      state.drainScheduled = true
      return true
    }
    if drains { scheduleDrain() }
  }

  /// Releases the queue on a Dispatch thread of its own.
  static func scheduleDrain() {
    DispatchQueue.global(qos: .utility).async {
      releaseAll()
    }
  }

  /// Releases everything queued, one storage at a time, on this thread.
  static func releaseAll() {
    let thread = currentThreadID()
    while let work = takeOne(on: thread) {
      switch work {
      case .storage(let storage):
        storage.release()
      case .retired(let objects):
        // Every reader that could have loaded these addresses has left its read section,
        // retaining what it loaded, when this returns.
        affix_synchronize()
        for bits in objects {
          Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release()
        }
      }
      state.withLock { state in
        let remaining = (state.releasing[thread] ?? 1) - 1
        state.releasing[thread] = remaining > 0 ? remaining : nil
      }
    }
  }

  /// Releases everything queued on this thread, then waits until the releases other threads
  /// started have returned, or until ``waitLimit`` has passed.
  ///
  /// Releases under way on this thread are not waited for: a `sweep()` from a value's `deinit`
  /// is part of them.
  static func releaseAllAndWait() {
    releaseAll()
    let thread = currentThreadID()
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: waitLimit)
    var attempts = 0
    while state.withLock({ $0.releasing.contains { $0.key != thread } }) {
      if clock.now >= deadline {
        Diagnostics.report(
          "associations",
          "sweep() returned while another thread was still releasing a dead host's values "
            + "after \(waitLimit); a value's deinit may be waiting for this sweep")
        return
      }
      attempts += 1
      if attempts < 64 { sched_yield() } else { usleep(1_000) }
    }
  }

  private enum Work {
    case storage(Unmanaged<AssociationStorage>)
    case retired([UInt])
  }

  /// The next work to do, counted as under way on `thread`: every retired object at once (one
  /// grace period serves them all), else one storage; nil once the queue is empty, which also
  /// lets the next enqueue schedule a drain, whoever emptied it: a drain scheduled meanwhile
  /// finds nothing, which is harmless.
  private static func takeOne(on thread: UInt) -> Work? {
    state.withLock { state in
      let work: Work
      if !state.retired.isEmpty {
        work = .retired(state.retired)
        state.retired = []
      } else if let storage = state.pending.popLast() {
        work = .storage(storage)
      } else {
        state.drainScheduled = false
        return nil
      }
      state.releasing[thread, default: 0] += 1
      return work
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
