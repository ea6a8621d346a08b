/// How a piece of loading work ended, as the indicator shows it when it disappears.
///
/// A failure carries the error the work threw, so that an indicator can show it:
///
/// ```swift
/// func disappear(outcome: LoadingOutcome) {
///   if case .failure(let error) = outcome { statusLine.text = "Failed: \(error)" }
/// }
/// ```
///
/// Outcomes are `Sendable` and `Hashable`, so they travel between isolations and tests compare
/// them. Two failures are equal when their errors have the same type and are equal: by `==`
/// for an `Equatable` error, by their `String(reflecting:)` otherwise (any `Error` carries no
/// equality of its own).
public enum LoadingOutcome: Sendable, Hashable, CustomStringConvertible {
  /// The work succeeded.
  case success

  /// The work failed with `error`.
  case failure(any Error)

  /// The loading was abandoned: the work was cancelled, or its controller was removed while
  /// the indicator was shown.
  case cancelled

  /// The error of a failure; `nil` for any other outcome.
  public var error: (any Error)? {
    if case .failure(let error) = self { return error }
    return nil
  }

  /// `success`, `failure: ` and the error's description, or `cancelled`.
  public var description: String {
    switch self {
    case .success: "success"
    case .failure(let error): "failure: \(error)"
    case .cancelled: "cancelled"
    }
  }

  /// Whether both are the same outcome; failures compare their errors (see above).
  public static func == (lhs: LoadingOutcome, rhs: LoadingOutcome) -> Bool {
    switch (lhs, rhs) {
    case (.success, .success), (.cancelled, .cancelled): true
    case (.failure(let left), .failure(let right)): sameError(left, right)
    default: false
    }
  }

  /// Hashes the case and, for a failure, the error's type.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success: hasher.combine(0)
    case .failure(let error): hasher.combine(ObjectIdentifier(type(of: error)))
    case .cancelled: hasher.combine(2)
    }
  }
}

private func sameError(_ left: any Error, _ right: any Error) -> Bool {
  guard type(of: left) == type(of: right) else { return false }
  // Through `Any`: cast from `any Error`, the compiler wrongly warns that it always succeeds.
  let boxed: Any = left
  if let left = boxed as? any Equatable { return left.isEqual(to: right) }
  return String(reflecting: left) == String(reflecting: right)
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self).map { $0 == self } ?? false
  }
}
