import Affix
import Synchronization

/// Holds a token where an action can reach it, so that the action can cancel its own work.
final class TokenBox: Sendable {
  private let stored = Mutex<CancellationToken?>(nil)

  var token: CancellationToken? {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }

  func cancel() {
    token?.cancel()
  }
}

/// An object whose release tests can observe through a weak reference.
final class Payload: Sendable {}
