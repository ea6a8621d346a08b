/// A handle on work that can be cancelled: scheduled tasks, timers, frame-clock subscriptions
/// and observations.
///
/// Dropping the last reference to a token cancels its work, so work lives exactly as long as
/// whoever holds the token, unless ``detach()`` hands the work its own life.
/// ``cancel()`` is idempotent and safe from any thread; the cancellation handler runs once,
/// on the thread that cancels, outside every lock.
///
/// ```swift
/// let token = CancellationToken { print("stopped") }
/// token.cancel()  // prints "stopped"
/// token.cancel()  // does nothing
/// ```
public final class CancellationToken: Sendable, Hashable, CustomStringConvertible {
  private struct State {
    var onCancel: (@Sendable () -> Void)?
    var isCancelled = false
    var isDetached = false
  }

  private let state: LockedState<State>

  /// Run by each `cancel()` that finds `onCancel` already taken, for work that must have
  /// stopped by the time any `cancel()` returns, not only the first.
  private let onLaterCancel: (@Sendable () -> Void)?

  /// Creates a token that runs `onCancel` the first time it is cancelled.
  ///
  /// - Parameter onCancel: Stops the work this token stands for. It runs at most once, outside
  ///   the token's lock, on the thread that cancels (or releases the last reference).
  public init(onCancel: @escaping @Sendable () -> Void) {
    state = LockedState(unchecked: State(onCancel: onCancel))
    onLaterCancel = nil
  }

  /// A token that also runs `onLaterCancel` on every `cancel()` after the first, outside the
  /// token's lock.
  init(
    onCancel: @escaping @Sendable () -> Void, onLaterCancel: @escaping @Sendable () -> Void
  ) {
    state = LockedState(unchecked: State(onCancel: onCancel))
    self.onLaterCancel = onLaterCancel
  }

  /// Creates a token whose work is already cancelled.
  public static func cancelled() -> CancellationToken {
    let token = CancellationToken {}
    token.cancel()
    return token
  }

  deinit {
    let onCancel = state.withLockUnchecked { state -> (@Sendable () -> Void)? in
      guard !state.isDetached else { return nil }
      return Self.takeHandler(&state)
    }
    onCancel?()
  }

  /// Cancels the work. Calling it again, from any thread, does nothing.
  ///
  /// An observation's token also waits, for 2 seconds at most, for a call of its observer
  /// running on another thread (see `Associations.observe(_:isolation:_:)`): past that, the
  /// call may be waiting for this thread, and the cancel returns and reports a diagnostic.
  public func cancel() {
    let onCancel = state.withLockUnchecked { Self.takeHandler(&$0) }
    if let onCancel { onCancel() } else { onLaterCancel?() }
  }

  /// Whether ``cancel()`` has been called (or the work was cancelled some other way).
  public var isCancelled: Bool {
    state.withLockUnchecked { $0.isCancelled }
  }

  /// Lets the work go on after the last reference to the token is dropped.
  ///
  /// A detached token can still be cancelled explicitly while someone holds it.
  public func detach() {
    state.withLockUnchecked { $0.isDetached = true }
  }

  /// A short description for diagnostics: whether the work is cancelled or detached.
  public var description: String {
    let (cancelled, detached) = state.withLockUnchecked { ($0.isCancelled, $0.isDetached) }
    return "CancellationToken(\(cancelled ? "cancelled" : detached ? "detached" : "active"))"
  }

  /// Tokens are equal only to themselves.
  public static func == (lhs: CancellationToken, rhs: CancellationToken) -> Bool {
    lhs === rhs
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  private static func takeHandler(_ state: inout State) -> (@Sendable () -> Void)? {
    guard !state.isCancelled else { return nil }
    state.isCancelled = true
    defer { state.onCancel = nil }
    return state.onCancel
  }
}
