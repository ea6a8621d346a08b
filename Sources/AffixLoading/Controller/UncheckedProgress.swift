import Foundation

/// A Foundation `Progress`, which is thread-safe (it locks its own state) but is not declared
/// `Sendable` by every Foundation: read only through `fractionCompleted` and
/// `isIndeterminate`.
struct UncheckedProgress: @unchecked Sendable, Equatable {
  let progress: Progress

  init(_ progress: Progress) {
    self.progress = progress
  }

  /// The same `Progress` object.
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.progress === rhs.progress
  }
}
