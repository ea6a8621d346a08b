/// State that threads share, reached only under a lock: the lock a mixin keeps its state in.
///
/// Keep critical sections short and call no user code, report or continuation inside one. It is
/// stricter than `Mutex`: state goes in `sending`, and only `Sendable` results leave. See
/// <doc:MixinKitInDetail#Locked-state>.
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
