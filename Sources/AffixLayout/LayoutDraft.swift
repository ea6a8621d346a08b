public import Affix

/// One recorded wish about a node's frame: an attribute, what it is pinned to, a constant.
///
/// A draft is made by the node's ``Pin`` and waits on the node until the node joins a
/// ``LayoutContainer``; it is then active, and takes part in every layout of that container.
/// The node keeps its drafts and releases them when it dies; a draft keeps its node and its
/// target weakly. A draft with an observed constant (``LayoutConstant/observed(_:of:isolation:)``) keeps
/// the subscription's token, so that the draft's death cancels it.
///
/// ```swift
/// card.pin.width(120).top(to: .tag(7), offset: 8)
/// let top = card.pin.drafts().last  // the draft of the top edge
/// top?.remove()
/// ```
public final class LayoutDraft: CustomStringConvertible {
  /// The three groups of drafts, activated in this order when a node joins a container.
  public enum Group: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A length of the node's own: `width(30)`.
    case own
    /// An attribute pinned to the container: `top(8)`, `centerInParent()`.
    case parent
    /// An attribute pinned to another node, or to a tag: `leading(to: other)`.
    case others

    /// `own`, `parent` or `others`.
    public var description: String {
      switch self {
      case .own: "own"
      case .parent: "parent"
      case .others: "others"
      }
    }
  }

  /// What a draft is pinned to.
  enum Target {
    case none
    case parent
    case node(NodeReference)
    case tag(Int)
  }

  /// The subsystem of this module's diagnostics.
  static let subsystem = "layout"

  /// The attribute of the node that the draft sets.
  public let attribute: LayoutAttribute
  /// The attribute of the target it is read from (the attribute itself for a length).
  public let targetAttribute: LayoutAttribute
  /// Whether the draft was made by ``inverted(isolation:fileID:line:)`` from another one.
  public let isInverted: Bool
  /// The constant now: the latest value of an observed constant.
  public private(set) var constant: Double
  /// How many times the draft was activated: once at most.
  public private(set) var activationCount = 0
  /// The subscription of an observed constant, cancelled when the draft dies or is removed.
  public private(set) var listener: CancellationToken?

  let target: Target
  let source: LayoutConstant
  let fileID: String
  let line: Int
  weak var owner: NodeLayout?
  /// Whether a report was made about the draft: one report a draft.
  var reported = false

  init(
    attribute: LayoutAttribute, target: Target, targetAttribute: LayoutAttribute,
    constant: LayoutConstant, constantValue: Double, isInverted: Bool = false,
    fileID: String, line: Int
  ) {
    self.attribute = attribute
    self.target = target
    self.targetAttribute = targetAttribute
    self.source = constant
    self.constant = constantValue
    self.isInverted = isInverted
    self.fileID = fileID
    self.line = line
  }

  deinit {
    listener?.cancel()
  }

  /// The group the draft is activated in.
  public var group: Group {
    switch target {
    case .none: .own
    case .parent: .parent
    case .node, .tag: .others
    }
  }

  /// Whether the draft is active: its node joined a container since it was made.
  public var isActive: Bool { activationCount > 0 && owner != nil }

  /// Removes the draft from its node, and cancels its listener; the node's container lays out
  /// again.
  ///
  /// ```swift
  /// card.pin.drafts().first?.remove()
  /// ```
  public func remove() {
    listener?.cancel()
    listener = nil
    guard let owner else { return }
    owner.drafts.removeAll { $0 === self }
    self.owner = nil
    owner.container?.layout()
  }

  /// Records on the target node the inverse of this draft, with a listener of its own: for
  /// `a.leading = b.trailing + c`, `b.trailing = a.leading - c`.
  ///
  /// The inverted draft lives on the target node and keeps its own subscription to an observed
  /// constant: removing either draft leaves the other, and its listener, as they were.
  ///
  /// ```swift
  /// let inverse = a.pin.leading(to: b).drafts().last?.inverted()
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The new draft, or `nil` (reported) for a draft not pinned to a live node.
  @discardableResult
  public func inverted(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> LayoutDraft? {
    guard
      CallerIsolation.required(
        isolation, by: "inverted", subsystem: Self.subsystem, fileID: fileID, line: line) != nil
    else { return nil }
    guard case .node(let reference) = target, let targetLayout = reference.layout,
      let owner, owner.node.isAlive
    else {
      Diagnostics.report(
        subsystem: Self.subsystem,
        message: "inverted() needs a draft pinned to a live node, not \(targetDescription); "
          + "nothing recorded.",
        fileID: fileID, line: line)
      return nil
    }
    let inverse = LayoutDraft(
      attribute: targetAttribute, target: .node(NodeReference(owner)),
      targetAttribute: attribute, constant: source.negated, constantValue: -constant,
      isInverted: true, fileID: fileID, line: line)
    targetLayout.record(inverse, isolation: isolation)
    return inverse
  }

  /// `LayoutDraft(width = 30, own)`, `LayoutDraft(top = tag 7.bottom + 2, others, active)`.
  public var description: String {
    let value: String
    switch target {
    case .none: value = "\(constant)"
    default: value = "\(targetDescription).\(targetAttribute) + \(constant)"
    }
    return "LayoutDraft(\(attribute) = \(value), \(group)\(isActive ? ", active" : ""))"
  }

  var targetDescription: String {
    switch target {
    case .none: "nothing"
    case .parent: "the container"
    case .node: "a node"
    case .tag(let tag): "tag \(tag)"
    }
  }

  /// Subscribes an observed constant, in the isolation the constant was made in.
  func listen() {
    guard let subscribe = source.subscribe else { return }
    listener = subscribe { [weak self] value in
      self?.constantChanged(to: value)
    }
  }

  func activate(in container: LayoutContainer) {
    activationCount += 1
  }

  /// Whether a layout found the node this draft's tag names, since the draft's node joined
  /// its container. A tagged node may join after the draft's: only a node that leaves with
  /// its tag never found was pinned to a tag nobody has.
  var foundItsTag = false

  /// Tells the draft that its node leaves its container: a draft to a tag that no layout found
  /// meanwhile is reported, at the line that made it.
  func nodeLeft() {
    defer { foundItsTag = false }
    guard case .tag(let tag) = target, activationCount > 0, !foundItsTag else { return }
    report(
      "no node tagged \(tag) joined the container while this node was in it; the draft "
        + "was never applied.")
  }

  /// A report about the draft, once, at the line that made it.
  func report(_ message: String, severity: Diagnostic.Severity = .warning) {
    guard !reported else { return }
    reported = true
    Diagnostics.report(
      subsystem: Self.subsystem, message: "\(self): \(message)", severity: severity,
      fileID: fileID, line: line)
  }

  private func constantChanged(to value: Double) {
    guard value.isFinite else {
      return Diagnostics.report(
        subsystem: Self.subsystem,
        message: "\(self): the observed constant became \(value); the draft keeps \(constant).",
        fileID: fileID, line: line)
    }
    var value = value
    if attribute.isLength, group == .own, value < 0 {
      Diagnostics.report(
        subsystem: Self.subsystem,
        message: "\(self): the observed \(attribute) became \(value); the draft uses 0.",
        fileID: fileID, line: line)
      value = 0
    }
    guard value != constant else { return }
    constant = value
    if isActive { owner?.container?.layout() }
  }
}

/// A weak reference to another node, for a draft pinned to it.
struct NodeReference {
  let node: AnyWeakReference
  weak var layout: NodeLayout?

  init(_ layout: NodeLayout) {
    node = layout.node
    self.layout = layout
  }
}
