import Affix

/// The layout state of one node, kept on it with `Associations`: its drafts, its tag, its
/// container. Bound to the isolation the node is pinned in, and released with the node.
final class NodeLayout {
  /// The node, weakly: its identity among a container's children.
  let node: AnyWeakReference
  /// Reads the node's frame; `nil` once it died.
  let readFrame: () -> LayoutRect?
  /// Writes the node's frame.
  let writeFrame: (LayoutRect) -> Void

  var tag: Int?
  weak var container: LayoutContainer?
  /// Every draft of the node, in the order it was made.
  var drafts: [LayoutDraft] = []
  /// The work that activates the drafts at each join, recorded once, in the node's isolation.
  var activation: CancellationToken?
  /// Whether a negative length was reported since the node last had a consistent frame.
  var reportedClamp = false

  init<Node: LayoutNode>(_ node: Node) {
    self.node = AnyWeakReference(node)
    readFrame = { [weak node] in node?.frame }
    writeFrame = { [weak node] frame in node?.frame = frame }
  }

  var identity: ObjectIdentifier? { node.object.map(ObjectIdentifier.init) }

  /// Records, once, the work that activates the drafts at every join of a container: the
  /// node's ``JoinedContainer`` moment.
  func recordActivation(isolation: isolated (any Actor)?) {
    guard activation == nil, let object = node.object else { return }
    activation = Associations(of: object).whenReached(
      JoinedContainer.self, repeats: .everyTime, isolation: isolation
    ) { [weak self] in
      self?.activatePending()
    }
  }

  /// Whether the node is in a container: it reached ``JoinedContainer`` and did not leave it.
  var hasJoined: Bool {
    guard let object = node.object else { return false }
    return Associations(of: object).hasReached(JoinedContainer.self)
  }

  /// Activates the drafts not yet active: the node's own, then those to its container, then
  /// those to other nodes; then lays the container out.
  func activatePending() {
    guard let container else { return }
    let pending = drafts.filter { $0.activationCount == 0 }
    for group in LayoutDraft.Group.allCases {
      for draft in pending where draft.group == group {
        draft.activate(in: container)
      }
    }
    container.layout()
  }
}

/// Where the layout state of a node is kept.
enum NodeLayoutKey: AssociatedKey {
  typealias Value = IsolationBound<NodeLayout>?
}

extension LayoutNode {
  /// The node's layout state, made on first use in the caller's isolation; `nil`, reported,
  /// when the node was first pinned in another isolation.
  func layoutState(
    isolation: isolated (any Actor)?, fileID: String, line: Int
  ) -> NodeLayout? {
    let associations = Associations(of: self)
    if let bound = associations[NodeLayoutKey.self] {
      if let state = bound.value(isolation: isolation) { return state }
      Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: "\(Self.self) was pinned in another isolation; its layout is used there only. "
          + "Ignored.",
        fileID: fileID, line: line)
      return nil
    }
    let state = NodeLayout(self)
    associations[NodeLayoutKey.self] = IsolationBound(state, isolation: isolation)
    state.recordActivation(isolation: isolation)
    return state
  }
}

extension NodeLayout {
  /// Keeps `draft` on the node, subscribes its constant, and records its activation.
  func record(_ draft: LayoutDraft, isolation: isolated (any Actor)?) {
    draft.owner = self
    drafts.append(draft)
    draft.listen()
    if hasJoined { activatePending() }
  }
}
