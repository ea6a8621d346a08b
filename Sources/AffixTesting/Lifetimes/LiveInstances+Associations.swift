import Affix

/// The key of the token that counts a host.
private enum Lifetime: AssociatedKey {
  typealias Value = LifetimeToken?
}

/// Counts `object` in ``LiveInstances`` under its dynamic type, by attaching a
/// ``LifetimeToken`` to it: for objects whose type you do not own.
///
/// The object is remembered weakly, so that ``LiveInstances/instances(of:)`` and the diagnostic
/// for a type over its maximum can name the retain cycle that keeps it alive.
///
/// Counting the same object again does nothing. The count drops when the token is released
/// with the object's other associated values: at its `deinit` for an
/// `AssociationOwner`, otherwise at the next sweep of the shared table after it dies
/// (`AssociationTable.sweep()`).
///
/// ```swift
/// trackLifetime(of: window, maximum: 1)
/// ```
///
/// - Parameters:
///   - object: The object to count.
///   - maximum: The most instances of its type that should be alive at once.
public func trackLifetime<Object: AnyObject>(of object: Object, maximum: Int? = nil) {
  _ = Associations(of: object).value(for: Lifetime.self) {
    LifetimeToken(counting: object, maximum: maximum)
  }
}
