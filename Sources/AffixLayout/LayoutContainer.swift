import Affix

/// A node that places its children: it activates their drafts when they join, and lays them
/// out again when a constant, a child or its own size changes.
///
/// ```swift
/// let stage = LayoutContainer(frame: LayoutRect(width: 320, height: 200))
/// let card = Card()
/// card.pin.width(120).height(80).centerInParent()
/// stage.add(card)
/// #expect(card.frame == LayoutRect(x: 100, y: 60, width: 120, height: 80))
/// ```
///
/// A layout is one pass of arithmetic, with no solver: the children in the order of their
/// dependencies, each frame from its drafts (its own lengths, then its container, then other
/// nodes, a later value of an attribute replacing an earlier one). A container holds its
/// children strongly, as a view holds its subviews; a child holds its container weakly.
public final class LayoutContainer: LayoutNode, CustomStringConvertible {
  /// The container's frame; a change of its size lays the children out again.
  public var frame: LayoutRect {
    didSet {
      if frame.width != oldValue.width || frame.height != oldValue.height { layout() }
    }
  }

  struct Entry {
    let object: AnyObject
    let state: NodeLayout
  }

  var children: [Entry] = []
  private var isLayingOut = false
  private var needsLayout = false

  /// A container with the given frame.
  ///
  /// - Parameter frame: Its frame, in its own container's coordinates if it has one.
  public init(frame: LayoutRect = .zero) {
    self.frame = frame
  }

  /// How many children the container has.
  public var count: Int { children.count }

  /// Whether `node` is a child of the container.
  ///
  /// - Parameter node: The node to look for.
  /// - Returns: Whether it is a child.
  public func contains(_ node: some LayoutNode) -> Bool {
    children.contains { $0.object === node }
  }

  /// `LayoutContainer(3 children, (0, 0, 320 × 200))`.
  public var description: String {
    "LayoutContainer(\(children.count) children, \(frame))"
  }

  /// Adds `child`, taking it from the container it was in, and lays the children out.
  ///
  /// The child's drafts are activated: the ones it has and the ones it gets later.
  ///
  /// ```swift
  /// stage.add(card)
  /// ```
  ///
  /// - Parameters:
  ///   - child: The node to add; not the container itself, nor one it already has.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func add<Child: LayoutNode>(
    _ child: Child, isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID,
    line: Int = #line
  ) {
    guard
      CallerIsolation.required(
        isolation, by: "add", subsystem: LayoutDraft.subsystem, fileID: fileID, line: line)
        != nil
    else { return }
    guard child !== self, !contains(child) else {
      return Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: child === self
          ? "add(_:) was given the container itself; ignored."
          : "add(_:) was given a child the container already has; ignored.",
        fileID: fileID, line: line)
    }
    guard let state = child.layoutState(isolation: isolation, fileID: fileID, line: line)
    else { return }
    if let previous = state.container { previous.remove(child, isolation: isolation) }
    children.append(Entry(object: child, state: state))
    state.container = self
    // The node's moment: its drafts are activated by the work it recorded for it.
    Associations(of: child).reach(JoinedContainer.self)
    layout()
  }

  /// Removes `child`: it keeps its drafts, active, for the next container it joins, and the
  /// other children are laid out again.
  ///
  /// - Parameters:
  ///   - child: The node to remove.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func remove<Child: LayoutNode>(
    _ child: Child, isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID,
    line: Int = #line
  ) {
    guard let index = children.firstIndex(where: { $0.object === child }) else {
      return Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: "remove(_:) was given a node that is not a child; ignored.",
        fileID: fileID, line: line)
    }
    let removed = children.remove(at: index)
    removed.state.container = nil
    for draft in removed.state.drafts { draft.nodeLeft() }
    Associations(of: child).leave(JoinedContainer.self)
    layout()
  }

  deinit {
    // The children it held leave it: a later container's join is a new moment.
    for child in children {
      child.state.container = nil
      for draft in child.state.drafts { draft.nodeLeft() }
      Associations(of: child.object).leave(JoinedContainer.self)
    }
  }

  /// Lays the children out: one pass, and another if a frame written in it asked for one.
  public func layout() {
    guard !isLayingOut else {
      needsLayout = true
      return
    }
    isLayingOut = true
    defer { isLayingOut = false }
    var passes = 0
    repeat {
      needsLayout = false
      passes += 1
      layOutOnce()
    } while needsLayout && passes < 4
  }
}
