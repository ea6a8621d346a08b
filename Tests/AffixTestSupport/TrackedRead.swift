import Observation

/// One read made under `withObservationTracking(_:onChange:)`, counting the `onChange` calls it
/// gets: at most one, since Observation ends a tracking at its first change, so a count of 2
/// would be a tracking the library told twice.
package final class TrackedRead: Sendable {
  private let calls = Counter()

  /// Tracks what `read` reads.
  package init<Value>(_ read: () -> Value) {
    withObservationTracking {
      _ = read()
    } onChange: { [calls] in
      calls.increment()
    }
  }

  /// How many times the tracking was told of a change: how many times `onChange` ran.
  package var timesTold: Int { calls.value }

  /// Whether `onChange` ran.
  package var fired: Bool { timesTold > 0 }
}
