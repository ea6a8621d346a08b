internal import AffixRuntimeShims
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
///
/// A cancel never waits without end. A call on another thread may itself wait for the
/// cancelling thread: a nonisolated observer that does `DispatchQueue.main.sync` while the
/// main thread cancels it, or that cancels its own token through it, or one that takes a lock
/// the canceller holds. Nothing the library can see tells such a call from a slow one, so the
/// cancel waits up to ``cancelWaitLimit``, as `sweep()` waits for releases, and then returns
/// and reports it: the call in flight finishes after the cancel returned, and no call starts
/// after it. Returning at once instead would drop the guarantee for every cancel, including
/// the common one whose call in flight ends a few microseconds later.
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

  /// How long a cancel waits for a call running on another thread before it gives up and
  /// reports that the call may be waiting for the cancelling thread (see the type's summary).
  package static let cancelWaitLimit: Duration = .seconds(2)

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
  /// inside the callback or a call on another thread outlasted ``cancelWaitLimit`` (reported
  /// as a diagnostic), none is still running. Idempotent; every caller waits, until a cancel
  /// has given up.
  func cancel() {
    guard !gate.cancel(waitingUpTo: Self.cancelWaitLimit) else { return }
    Diagnostics.report(
      subsystem: "observation",
      message: "cancel() returned while a call of the observer was still running on another "
        + "thread after \(Self.cancelWaitLimit); it may be waiting for the cancelling thread "
        + "(DispatchQueue.main.sync in a nonisolated observer, or a lock held around the "
        + "cancel). That call ends after the cancel; no later call starts.")
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
    /// Whether a cancel gave up waiting for a call: later cancels do not wait for it again.
    var gaveUp = false
  }

  private let calls = LockedState(unchecked: Calls())

  /// Bumped, and its sleepers woken, whenever a call of a cancelled observation leaves.
  private let leaves = Atomic<UInt32>(0)

  /// Runs `body` unless cancelled, as one call that a cancel waits for.
  func run(_ body: () -> Void) {
    let thread = currentThread()
    let admitted = calls.withLockUnchecked { calls in
      guard !calls.isCancelled else { return false }
      calls.threads.append(thread)
      return true
    }
    guard admitted else { return }
    defer { leave(thread) }
    body()
  }

  private func leave(_ thread: UInt) {
    let isCancelled = calls.withLockUnchecked { calls in
      // Present: this thread's call appended it, and only calls remove an entry.
      calls.threads.remove(at: calls.threads.lastIndex(of: thread)!)
      return calls.isCancelled
    }
    guard isCancelled else { return }
    leaves.add(1, ordering: .releasing)
    Parking.unparkAll(on: leaves)
  }

  /// Refuses calls from now on, and waits for those running on other threads, for at most
  /// `limit`; false if one was still running then. Once a cancel has given up, later ones
  /// return at once: the call they would wait for was reported, and may be waiting for them.
  func cancel(waitingUpTo limit: Duration) -> Bool {
    let thread = currentThread()
    let returnsAtOnce = calls.withLockUnchecked { calls in
      calls.isCancelled = true
      return calls.gaveUp || calls.threads.contains(thread)
    }
    guard !returnsAtOnce else { return true }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while true {
      // Read before the check: a call that leaves after the check bumps it first, so the
      // park below returns at once rather than missing the wake-up.
      let seen = leaves.load(ordering: .acquiring)
      let remaining = clock.now.duration(to: deadline)
      let isIdle = calls.withLockUnchecked { calls in
        calls.waitingCancels += calls.threads.isEmpty || remaining <= .zero ? 0 : 1
        return calls.threads.isEmpty
      }
      if isIdle { return true }
      if remaining <= .zero {
        calls.withLockUnchecked { $0.gaveUp = true }
        return false
      }
      Parking.park(on: leaves, while: seen, for: remaining)
      calls.withLockUnchecked { $0.waitingCancels -= 1 }
    }
  }

  /// How many cancels are waiting for calls in flight, for tests.
  var waitingCancels: Int {
    calls.withLockUnchecked { $0.waitingCancels }
  }
}

extension Parking {
  /// Sleeps while `word` holds `expected`, for at most `duration`; may return early, as
  /// ``Parking/park(on:while:)`` may: the caller checks its condition and its deadline again.
  fileprivate static func park(
    on word: borrowing Atomic<UInt32>, while expected: UInt32, for duration: Duration
  ) {
    let (seconds, attoseconds) = duration.components
    // Clamped to a day, which no caller's limit nears, so that the product cannot overflow.
    let nanoseconds = min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000
    #if os(Linux) || canImport(Darwin)
      withUnsafePointer(to: word) {
        affix_park_for(UnsafeMutableRawPointer(mutating: $0), expected, max(1, nanoseconds))
      }
    #else
      if word.load(ordering: .relaxed) == expected { affix_yield() }
    #endif
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
