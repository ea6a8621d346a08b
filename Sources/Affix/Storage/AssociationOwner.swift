/// A type that keeps its associated values in a stored property of its own.
///
/// Its values are released exactly when it deinitializes, and access skips the shared table. See
/// <doc:MemoryAndThreads#When-values-are-released>.
///
/// ```swift
/// final class Card: AssociationOwner {
///   let associationStorage = AssociationStorage()
/// }
///
/// Associations(of: card)[Selected.self] = true
/// ```
public protocol AssociationOwner: AnyObject {
  /// The storage for this instance's associated values. Return the same instance every time.
  var associationStorage: AssociationStorage { get }
}
