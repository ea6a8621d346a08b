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
public final class LockedState<State>: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached through `withLock`, under `lock`.
  @usableFromInline
  let lock = SpinLock()

  // The lock already makes every access exclusive; the runtime's exclusivity bookkeeping
  // would only add its cost.
  @usableFromInline
  @exclusivity(unchecked) var state: State

  /// Creates the lock around `state`.
  ///
  /// ```swift
  /// let count = LockedState(0)
  /// ```
  public init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with the state, under the lock, and returns what it returns.
  ///
  /// `body` must not block, take this lock again, or run user code.
  ///
  /// ```swift
  /// let count = LockedState(0)
  /// let next = count.withLock { value in
  ///   value += 1
  ///   return value
  /// }
  /// ```
  @inlinable @inline(__always)
  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
