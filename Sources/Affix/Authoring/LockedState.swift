/// State that threads share, reached only under a lock: the lock a mixin keeps its state in.
///
/// The lock is the one every Affix module uses: a compare-and-swap when uncontended, a futex
/// sleep when contended, and seen by the thread sanitizer (which does not see
/// `Synchronization.Mutex` on Linux). Keep critical sections short; never call user code,
/// ``Diagnostics/report(_:)``, a scheduler or a continuation inside one: take what you need
/// out, unlock, then act.
///
/// ```swift
/// final class Blinker: Capability {
///   private let state = LockedState(State())
///
///   func stop() {
///     let token = state.withLock { state in
///       defer { state.token = nil }
///       return state.token
///     }
///     token?.cancel()  // after unlocking
///   }
/// }
/// ```
///
/// It is as strict as `Synchronization.Mutex`: the state goes in as a `sending` value and each
/// critical section hands it to `body` as `inout sending`, so that no reference the caller
/// keeps can reach it outside the lock, and a result leaves only if it is `sending` (a value
/// disconnected from the state, or a `Sendable` one). A non-`Sendable` object shared through
/// the lock with two tasks does not compile.
public final class LockedState<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `lock`, and the
  // `sending` initializer and results keep every other reference to it out of reach.
  @usableFromInline
  let lock = SpinLock()

  // The lock already makes every access exclusive; the runtime's exclusivity bookkeeping
  // would only add its cost.
  @usableFromInline
  @exclusivity(unchecked) var state: State

  /// Creates the lock around `state`, which the caller gives up.
  ///
  /// ```swift
  /// let count = LockedState(0)
  /// ```
  public init(_ state: sending State) {
    self.state = state
  }

  /// Runs `body` with the state, under the lock, and returns what it returns.
  ///
  /// `body` must not block, take this lock again, or run user code. What it returns must not
  /// share the state (`sending`): return a copy of a `Sendable` part, or a value made there.
  ///
  /// ```swift
  /// let count = LockedState(0)
  /// let next = count.withLock { value in
  ///   value += 1
  ///   return value
  /// }
  /// ```
  @inlinable @inline(__always)
  public func withLock<Result, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
