public import Testing

/// What a ``LeakTracker`` found: every tracked object that is still alive, and why if it can
/// tell.
///
/// Each survivor describes itself on one line that starts with `LEAK:`, which is what
/// `swift package leak-check` looks for:
///
/// ```
/// LEAK: Node "head" tracked at AppTests/ListTests.swift:12 is still alive; retain cycle: Node.next -> Node.next -> Node
/// LEAK: Document tracked at AppTests/DocumentTests.swift:8 is still alive; retain cycle: Document -[InspectorKey]-> Inspector.document -> Document
/// ```
public struct LeakReport: Sendable, CustomStringConvertible {
  /// A tracked object that outlived its scope.
  public struct Survivor: Sendable, CustomStringConvertible {
    /// The object's type, without its module.
    public let typeName: String
    /// The label given to ``LeakTracker/track(_:_:sourceLocation:)``, if any.
    public let label: String?
    /// Where the object was tracked.
    public let sourceLocation: SourceLocation
    /// A path of stored properties and associations from the object back to itself, if one
    /// exists.
    public let cycle: RetainPath?
    /// A path from another survivor to this one, when no cycle runs through this one.
    public let retainedBy: RetainPath?
    /// The object's properties that hold closures, then its associations that do (written
    /// `-[key]`), whose captures no path can show.
    public let closureProperties: [String]
    /// The closures the object reaches through strong references, observers of keys first.
    ///
    /// See ``RetainCycleFinder/reachableClosures(from:objectLimit:)``. They are where a cycle
    /// through a closure must pass, named in the report when no path shows.
    public let reachableClosures: [String]
    /// Whether the object's deinit has run but something still holds it `unowned`, which keeps
    /// its memory and its associated values from being released.
    public let isHeldUnowned: Bool

    /// `LEAK: Type "label" tracked at File.swift:12 is still alive; ...`, on one line.
    public var description: String {
      var text = "LEAK: \(typeName)"
      if let label {
        text += " \"\(label)\""
      }
      text += " tracked at \(sourceLocation.fileID):\(sourceLocation.line) "
      if isHeldUnowned {
        return text
          + "has run its deinit but is held unowned, which keeps its memory and its associated "
          + "values: an associated value, or an observer kept on it, refers to it unowned; "
          + "make that reference weak"
      }
      text += "is still alive; "
      if let cycle {
        text += "retain cycle: \(cycle)"
      } else if let retainedBy {
        text += "retained by another survivor: \(retainedBy)"
      } else if reachableClosures.isEmpty {
        text +=
          "no retain path through stored properties or associations (closure captures and "
          + "values inside a Mutex or an Atomic are not visible; something outside the "
          + "tracked objects may hold it)"
      } else {
        text +=
          "no retain path through stored properties or associations; closure captures are not "
          + "visible, check the closures it reaches, observers first: "
          + reachableClosures.joined(separator: ", ")
      }
      return text
    }
  }

  /// How many objects were tracked.
  public let trackedCount: Int
  /// The tracked objects still alive, in the order they were tracked.
  public let survivors: [Survivor]

  /// Whether every tracked object was released.
  public var isClean: Bool { survivors.isEmpty }

  /// One `LEAK:` line per survivor, or a line saying that all tracked objects were released.
  public var description: String {
    if isClean {
      return "No leaks: all \(trackedCount) tracked objects were released."
    }
    return survivors.map(\.description).joined(separator: "\n")
  }
}
