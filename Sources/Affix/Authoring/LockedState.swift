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
/// It is stricter than `Synchronization.Mutex`: the state goes in as a `sending` value, so that
/// no reference the caller keeps can reach it outside the lock, and only a `Sendable` result
/// leaves a critical section. `Mutex.withLock` lets a `sending` result out, and today's
/// compiler accepts the state itself as one (`mutex.withLock { $0 }`, swiftlang/swift#81274),
/// which hands a non-`Sendable` object to every caller; here that does not compile. Take a
/// non-`Sendable` part out by making it `Sendable` (a `@MainActor` class, a `Sendable` copy), or
/// act on it inside the lock.
public final class LockedState<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `lock`; the
  // `sending` initializer and the `Sendable` results keep every other reference out of reach.
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
  /// `body` must not block, take this lock again, or run user code. What it returns is
  /// `Sendable`: a copy of a `Sendable` part of the state, or a value made there.
  ///
  /// ```swift
  /// let count = LockedState(0)
  /// let next = count.withLock { value in
  ///   value += 1
  ///   return value
  /// }
  /// ```
  @inlinable @inline(__always)
  public func withLock<Result: Sendable, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  /// Creates the lock around `state` without the `sending` check: the core's own state, which
  /// keeps closures and references it hands out by design (each argued where it is kept).
  package init(unchecked state: State) {
    self.state = state
  }

  /// Runs `body` with the state under the lock, with no `Sendable` check on what it returns:
  /// the unsafe view of the core's own state (an observer copied out to be called unlocked).
  ///
  /// `body` must not block, take this lock again, or run user code.
  @inlinable @inline(__always)
  package func withLockUnchecked<Result>(
    _ body: (inout State) throws -> Result
  ) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
