/// A type that keeps its associated values in a stored property of its own.
///
/// Conform when you own the type: its values are then released exactly when it deinitializes,
/// rather than at the next sweep, and access skips the shared table. The API stays the same:
///
/// ```swift
/// final class Card: AssociationOwner {
///   let associationStorage = AssociationStorage()
/// }
///
/// Associations(of: card)[Selected.self] = true
/// ```
///
/// Choose it for types you control that carry many values or are created and dropped often;
/// use the shared table for everything else (system types, types from other modules).
public protocol AssociationOwner: AnyObject {
  /// The storage for this instance's associated values. Return the same instance every time.
  var associationStorage: AssociationStorage { get }
}
