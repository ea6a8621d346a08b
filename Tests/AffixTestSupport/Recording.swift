import Foundation

/// A thread-safe list that tests append to from callbacks on any thread, read in the order the
/// appends happened.
package final class Recording<Element: Sendable>: Sendable {
  private let elements = SanitizerVisibleLock<[Element]>([])

  package init() {}

  package func append(_ element: Element) {
    elements.withLock { $0.append(element) }
  }

  package var values: [Element] { elements.withLock { $0 } }
  package var count: Int { elements.withLock { $0.count } }
  package var last: Element? { elements.withLock { $0.last } }
}

/// State behind `NSLock`.
///
/// `Synchronization.Mutex` is invisible to the thread sanitizer on Linux (6.3.1: its futex is
/// not intercepted), and CI runs the tests under it; `NSLock` it sees, so a recording shared
/// between test threads reports no false race. `@unchecked Sendable` because every access to
/// `value` happens under `lock`. Not named `Locked`, which Affix's own package type is.
package final class SanitizerVisibleLock<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
