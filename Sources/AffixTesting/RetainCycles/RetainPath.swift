/// A chain of strong references between objects, found through their stored properties and
/// their associations.
///
/// Each step names the object that holds a reference and where: a property path inside it
/// (`children[2]`, `state.loaded`, `handlers[key]`), or the key of a value attached to it
/// through `Associations`, with the path inside that value if the reference is deeper. The
/// path ends at ``targetTypeName``. Its description reads like the chain it stands for:
///
/// ```
/// Parent.child -> Child.parent -> Parent
/// Document -[InspectorKey]-> Inspector.document -> Document
/// ```
///
/// Only stored properties are followed: what a closure captures is invisible to `Mirror`, so a
/// cycle through a closure never shows up as a path.
public struct RetainPath: Sendable, Hashable, CustomStringConvertible {
  /// One strong reference: the holding object's type and the way to the next object.
  public struct Step: Sendable, Hashable, CustomStringConvertible {
    /// The type of the object that holds the reference, without its module.
    public let typeName: String
    /// The path inside that object, from one of its stored properties down to the reference.
    ///
    /// For a step through an association, it is the path inside the associated value (empty
    /// when the value is the next object).
    public let property: String
    /// The name of the key under which the reference is attached to the object, or `nil` for
    /// a reference held by a stored property. A capability's key is its type name.
    public let association: String?

    /// Creates a step through a stored property, or through the association named
    /// `association`.
    public init(typeName: String, property: String, association: String? = nil) {
      self.typeName = typeName
      self.property = property
      self.association = association
    }

    /// `Type.property`, or `Type -[key]` for a step through an association (`Type -[key].field`
    /// when the reference sits inside the associated value).
    public var description: String {
      guard let association else { return "\(typeName).\(property)" }
      return "\(typeName) -[\(association)]\(property)"
    }
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

  /// The steps' descriptions, such as `["Parent.child", "Child.parent"]` or
  /// `["Document -[InspectorKey]", "Inspector.document"]`.
  public var propertyNames: [String] { steps.map(\.description) }

  /// `A.b -> B.c -> C`; a step through an association reads `A -[key]-> B`.
  public var description: String {
    var text = ""
    for step in steps {
      text += step.description + (step.association == nil ? " -> " : "-> ")
    }
    return text + targetTypeName
  }
}
