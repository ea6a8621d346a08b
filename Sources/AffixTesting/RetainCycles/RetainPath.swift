/// A chain of strong references between objects, found through their stored properties.
///
/// Each step names the object that holds a reference and the property path inside it
/// (`children[2]`, `state.loaded`, `handlers[key]`); the path ends at ``targetTypeName``.
/// Its description reads like the chain it stands for:
///
/// ```
/// Parent.child -> Child.parent -> Parent
/// ```
///
/// Only stored properties are followed: what a closure captures is invisible to `Mirror`, so a
/// cycle through a closure never shows up as a path.
public struct RetainPath: Sendable, Hashable, CustomStringConvertible {
  /// One strong reference: the holding object's type and the property path to the next object.
  public struct Step: Sendable, Hashable, CustomStringConvertible {
    /// The type of the object that holds the reference, without its module.
    public let typeName: String
    /// The path inside that object, from one of its stored properties down to the reference.
    public let property: String

    /// Creates a step.
    public init(typeName: String, property: String) {
      self.typeName = typeName
      self.property = property
    }

    /// `Type.property`.
    public var description: String { "\(typeName).\(property)" }
  }

  /// The references, from the first holder to the last.
  public let steps: [Step]
  /// The type of the object the path leads to.
  public let targetTypeName: String

  /// Creates a path.
  public init(steps: [Step], targetTypeName: String) {
    self.steps = steps
    self.targetTypeName = targetTypeName
  }

  /// The properties on the path, such as `["Parent.child", "Child.parent"]`.
  public var propertyNames: [String] { steps.map(\.description) }

  /// `A.b -> B.c -> C`.
  public var description: String {
    (propertyNames + [targetTypeName]).joined(separator: " -> ")
  }
}
