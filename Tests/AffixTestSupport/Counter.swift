import Synchronization

/// A counter that callbacks on any thread can bump and expectations can read.
///
/// Relaxed: a test reads it after the work it counts has been awaited or joined, which orders
/// the reads by other means.
package final class Counter: Sendable {
  private let count = Atomic<Int>(0)

  package init() {}

  package func increment() {
    count.add(1, ordering: .relaxed)
  }

  package var value: Int { count.load(ordering: .relaxed) }
}

/// A flag that callbacks on any thread can raise and expectations can read.
package final class Flag: Sendable {
  private let raised = Atomic<Bool>(false)

  package init() {}

  package func set() {
    raised.store(true, ordering: .relaxed)
  }

  /// Raises the flag; true only for the caller that raised it first.
  package func setFirst() -> Bool {
    !raised.exchange(true, ordering: .acquiringAndReleasing)
  }

  package var isSet: Bool { raised.load(ordering: .relaxed) }
}
