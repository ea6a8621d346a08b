import Affix

/// What to pin an attribute to, by name rather than by reference.
public enum LayoutReference: Sendable, Hashable {
  /// The node of the same container that carries this tag, now or once it joins.
  case tag(Int)
}

/// The DSL that records drafts of a node's frame.
///
/// Each call records one ``LayoutDraft`` (two for
/// ``centerInParent(offset:isolation:fileID:line:)``) and returns the pin, to chain.
///
/// Drafts wait until the node joins a ``LayoutContainer``: there the node's own lengths are
/// activated first, then the drafts to the container, then those to other nodes.
///
/// ```swift
/// card.pin.width(30).centerInParent()
/// label.pin.top(to: .tag(7), offset: 2).leading(to: card)
/// ```
///
/// Every call takes the caller's isolation, where the node lives and where an observed
/// constant's listener runs, and the caller's line for a misuse report.
public struct Pin<Node: LayoutNode> {
  /// The node the pin records drafts for.
  public let node: Node

  /// The node's drafts, in the order they were made.
  ///
  /// - Parameter isolation: Where the node lives: the caller's isolation unless given.
  /// - Returns: The drafts; none when the node lives in another isolation.
  public func drafts(isolation: isolated (any Actor)? = #isolation) -> [LayoutDraft] {
    Associations(of: node)[NodeLayoutKey.self]?.value(isolation: isolation)?.drafts ?? []
  }

  /// Tags the node, so that drafts of its container's other nodes can name it.
  ///
  /// ```swift
  /// header.pin.tag(7)
  /// ```
  ///
  /// - Parameters:
  ///   - tag: The tag.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func tag(
    _ tag: Int, isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID,
    line: Int = #line
  ) -> Pin {
    guard let state = state(by: "tag", isolation: isolation, fileID: fileID, line: line)
    else { return self }
    state.tag = tag
    state.container?.layout()
    return self
  }

  /// Pins the node's width to a constant.
  ///
  /// - Parameters:
  ///   - width: The width, finite and not negative.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func width(
    _ width: LayoutConstant, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    record(.width, to: .none, .width, width, isolation: isolation, fileID: fileID, line: line)
  }

  /// Pins the node's height to a constant.
  ///
  /// - Parameters:
  ///   - height: The height, finite and not negative.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func height(
    _ height: LayoutConstant, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    record(.height, to: .none, .height, height, isolation: isolation, fileID: fileID, line: line)
  }

  /// Pins an attribute of the node to the same attribute of its container, plus an offset.
  ///
  /// ```swift
  /// card.pin.parent(.top, offset: 8)
  /// ```
  ///
  /// - Parameters:
  ///   - attribute: The attribute, pinned to the container's bounds.
  ///   - offset: Added to the container's value.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func parent(
    _ attribute: LayoutAttribute, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    record(
      attribute, to: .parent, attribute, offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's top edge to its container's, plus an offset.
  ///
  /// - Parameters:
  ///   - offset: The distance from the container's top edge.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func top(
    _ offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    parent(.top, offset: offset, isolation: isolation, fileID: fileID, line: line)
  }

  /// Pins the node's leading edge to its container's, plus an offset.
  ///
  /// - Parameters:
  ///   - offset: The distance from the container's leading edge.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func leading(
    _ offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    parent(.leading, offset: offset, isolation: isolation, fileID: fileID, line: line)
  }

  /// Centres the node in its container, both ways, moved by an offset.
  ///
  /// ```swift
  /// card.pin.width(30).height(30).centerInParent()
  /// ```
  ///
  /// - Parameters:
  ///   - offset: Added to both centres.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func centerInParent(
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    parent(.centerX, offset: offset, isolation: isolation, fileID: fileID, line: line)
      .parent(.centerY, offset: offset, isolation: isolation, fileID: fileID, line: line)
  }

  /// Pins an attribute of the node to an attribute of another node of the same container.
  ///
  /// ```swift
  /// badge.pin.pin(.centerY, to: card, .top)
  /// ```
  ///
  /// - Parameters:
  ///   - attribute: The node's attribute.
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - otherAttribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func pin<Other: LayoutNode>(
    _ attribute: LayoutAttribute, to other: Other, _ otherAttribute: LayoutAttribute,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    guard
      CallerIsolation.required(
        isolation, by: "pin", subsystem: LayoutDraft.subsystem, fileID: fileID, line: line) != nil
    else { return self }
    guard other !== node else {
      Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: "\(attribute)(to:) pins \(Node.self) to itself; nothing recorded.",
        fileID: fileID, line: line)
      return self
    }
    guard let target = other.layoutState(isolation: isolation, fileID: fileID, line: line)
    else { return self }
    return record(
      attribute, to: .node(NodeReference(target)), otherAttribute, offset,
      isolation: isolation, fileID: fileID, line: line)
  }

  /// Pins an attribute of the node to an attribute of the container's node with a tag.
  ///
  /// ```swift
  /// label.pin.pin(.top, to: .tag(7), .bottom, offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - attribute: The node's attribute.
  ///   - reference: The tag of the node it is read from, found when the draft is activated,
  ///     or later, when a node with the tag joins the container.
  ///   - otherAttribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func pin(
    _ attribute: LayoutAttribute, to reference: LayoutReference,
    _ otherAttribute: LayoutAttribute, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    guard case .tag(let tag) = reference else { return self }
    return record(
      attribute, to: .tag(tag), otherAttribute, offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  private func state(
    by call: String, isolation: isolated (any Actor)?, fileID: String, line: Int
  ) -> NodeLayout? {
    guard
      CallerIsolation.required(
        isolation, by: call, subsystem: LayoutDraft.subsystem, fileID: fileID, line: line) != nil
    else { return nil }
    return node.layoutState(isolation: isolation, fileID: fileID, line: line)
  }

  private func record(
    _ attribute: LayoutAttribute, to target: LayoutDraft.Target,
    _ targetAttribute: LayoutAttribute, _ constant: LayoutConstant,
    isolation: isolated (any Actor)?, fileID: String, line: Int
  ) -> Pin {
    guard
      let state = state(by: "\(attribute)", isolation: isolation, fileID: fileID, line: line)
    else { return self }
    var value = constant.value
    if !value.isFinite {
      Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: "\(attribute) got the constant \(value); the draft uses 0.",
        fileID: fileID, line: line)
      value = 0
    }
    if case .none = target, value < 0 {
      Diagnostics.report(
        subsystem: LayoutDraft.subsystem,
        message: "\(attribute)(\(value)) is negative; the draft uses 0.",
        fileID: fileID, line: line)
      value = 0
    }
    let draft = LayoutDraft(
      attribute: attribute, target: target, targetAttribute: targetAttribute,
      constant: constant, constantValue: value, fileID: fileID, line: line)
    state.record(draft, isolation: isolation)
    return self
  }
}
