import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One observation of one key: its callback, in the isolation it was written in, and what its
/// token's cancel waits for.
///
/// An observer must never run once its token's `cancel()` has returned, yet it runs with no
/// lock held, and, for an observer written on an actor, later and elsewhere than the write that
/// it reports. So each call is admitted where the callback runs, just before it runs (and
/// refused once the observation is cancelled), and leaves after; a cancel marks the observation
/// cancelled, then sleeps until the calls admitted before it, on other threads, have left. A
/// call enqueued on an actor before a cancel is refused when it gets its turn.
///
/// A cancel made on a thread that is inside the callback (the callback cancels its own
/// observation, or drops its token) returns at once, without waiting for any call: its own
/// thread's call is its caller, and a call on another thread may be a cancel waiting for this
/// one. No call starts after it either way.
@usableFromInline
final class ObserverRegistration: Sendable {
  /// The key observed.
  let keyID: UInt

  /// The callback, admitted by `gate` in its isolation; call it through ``call(_:)``. Also read
  /// by the retain-path reflection, for what it captures.
  let notify: IsolatedCallback<Payload?>

  private let gate: ObserverGate

  /// The most changes that wait for a slow observer: past them, a change replaces the one
  /// waiting before it, so that the observer gets the newest value, in order, and a writer
  /// faster than its observer grows nothing.
  package static let backlogBound = 256

  /// An observer that runs `onChange` in `isolation` (see ``IsolatedCallback``), and not once
  /// cancelled.
  init(
    keyID: UInt, isolation: (any Actor)?, onChange: @escaping (Payload?) -> Void
  ) {
    let gate = ObserverGate()
    self.keyID = keyID
    self.gate = gate
    self.notify = IsolatedCallback(unchecked: isolation, coalescingPast: Self.backlogBound) {
      payload in
      gate.run { onChange(payload) }
    }
  }

  /// Takes the next place in the order of this observer's calls; the storage takes it under
  /// its lock, in the order of the changes.
  func issueTurn() -> UInt64 {
    notify.issueTurn()
  }

  /// Calls the callback with `payload` in its isolation, after every earlier turn, unless the
  /// observation is cancelled by the time it runs. Call with no lock held.
  @usableFromInline
  func call(_ payload: Payload?, inTurn turn: UInt64) {
    notify.deliver(payload, inTurn: turn)
  }

  /// Stops the observation: no call starts once this returns, and, unless this thread is
  /// inside the callback, none is still running. Idempotent; every caller waits.
  func cancel() {
    gate.cancel()
  }

  /// How many cancels are waiting for calls in flight, for tests.
  var waitingCancels: Int {
    gate.waitingCancels
  }
}

/// The admission of an observer's calls: refused once cancelled, and waited for by a cancel.
private final class ObserverGate: Sendable {
  private struct Calls {
    var isCancelled = false
    /// The threads inside the callback now, once per call. Calls of one observer run one at a
    /// time (its callback orders them), so this holds one thread at most; a list keeps the
    /// gate right without relying on that.
    var threads: [UInt] = []
    /// The cancels asleep until those calls leave.
    var waitingCancels = 0
  }

  private let calls = Locked(Calls())

  /// Bumped, and its sleepers woken, whenever a call of a cancelled observation leaves.
  private let leaves = Atomic<UInt32>(0)

  /// Runs `body` unless cancelled, as one call that a cancel waits for.
  func run(_ body: () -> Void) {
    let thread = currentThread()
    let admitted = calls.withLock { calls in
      guard !calls.isCancelled else { return false }
      calls.threads.append(thread)
      return true
    }
    guard admitted else { return }
    defer { leave(thread) }
    body()
  }

  private func leave(_ thread: UInt) {
    let isCancelled = calls.withLock { calls in
      // Present: this thread's call appended it, and only calls remove an entry.
      calls.threads.remove(at: calls.threads.lastIndex(of: thread)!)
      return calls.isCancelled
    }
    guard isCancelled else { return }
    leaves.add(1, ordering: .releasing)
    Parking.unparkAll(on: leaves)
  }

  /// Refuses calls from now on, and waits for those running on other threads.
  func cancel() {
    let thread = currentThread()
    let isInsideCallback = calls.withLock { calls in
      calls.isCancelled = true
      return calls.threads.contains(thread)
    }
    guard !isInsideCallback else { return }
    while true {
      // Read before the check: a call that leaves after the check bumps it first, so the
      // park below returns at once rather than missing the wake-up.
      let seen = leaves.load(ordering: .acquiring)
      let isIdle = calls.withLock { calls in
        calls.waitingCancels += calls.threads.isEmpty ? 0 : 1
        return calls.threads.isEmpty
      }
      if isIdle { return }
      Parking.park(on: leaves, while: seen)
      calls.withLock { $0.waitingCancels -= 1 }
    }
  }

  /// How many cancels are waiting for calls in flight, for tests.
  var waitingCancels: Int {
    calls.withLock { $0.waitingCancels }
  }
}

/// An identifier of the calling thread, unique among running threads.
private func currentThread() -> UInt {
  #if canImport(Glibc)
    UInt(pthread_self())
  #else
    // A pointer on Musl and on Apple platforms.
    UInt(bitPattern: pthread_self())
  #endif
}
