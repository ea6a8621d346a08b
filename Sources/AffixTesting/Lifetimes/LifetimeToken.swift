/// Counts one live instance of a type in ``LiveInstances`` for as long as it lives.
///
/// Keep one in a stored property of the object you want counted; the count drops when the
/// object (and with it the token) is released.
///
/// ```swift
/// final class Connection {
///   let lifetime = LifetimeToken(for: Connection.self, maximum: 4)
/// }
/// ```
public final class LifetimeToken: Sendable {
  /// The counted type.
  public let type: any Any.Type

  /// Counts one more live instance of `type`.
  ///
  /// - Parameters:
  ///   - type: The type to count, usually the type of the object that keeps the token.
  ///   - maximum: The most instances of `type` that should be alive at once. Going over it
  ///     reports a diagnostic; `nil` keeps the maximum set before, if any.
  public init(for type: any Any.Type, maximum: Int? = nil) {
    self.type = type
    LiveInstances.increment(type, maximum: maximum)
  }

  /// Counts `instance`, and remembers it weakly for ``LiveInstances/instances(of:)``.
  init(counting instance: AnyObject, maximum: Int?) {
    self.type = Swift.type(of: instance)
    LiveInstances.increment(type, maximum: maximum, instance: instance)
  }

  deinit {
    LiveInstances.decrement(type)
  }
}
