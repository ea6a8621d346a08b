package import Affix

/// Holds a cancellation token where the callback it guards can reach it, so that the callback
/// can cancel or drop its own work: the token exists only once the call that takes the
/// callback has returned.
package final class TokenBox: Sendable {
  private let stored = SanitizerVisibleLock<CancellationToken?>(nil)

  package init() {}

  /// The token held, if any.
  package var token: CancellationToken? {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }

  /// Cancels the token held, outside the box's lock: a cancel may wait for a callback that
  /// reads the box.
  package func cancel() {
    token?.cancel()
  }

  /// Empties the box and returns what it held, for the caller to drop outside the box's lock
  /// (dropping the last reference cancels, and a cancel may wait).
  package func take() -> CancellationToken? {
    stored.withLock { token in
      defer { token = nil }
      return token
    }
  }
}
