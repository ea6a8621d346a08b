import Affix
import Synchronization

/// Collects values from `@Sendable` actions, in the order they arrive.
final class Recorder<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  func append(_ value: Value) {
    values.withLock { $0.append(value) }
  }

  var all: [Value] {
    values.withLock { $0 }
  }

  var count: Int {
    values.withLock { $0.count }
  }
}

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
