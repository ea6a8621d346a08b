import Affix

extension Pin {
  /// Pins the node's `top` to another node's `bottom` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.top(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func top<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .bottom, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .top, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `top` to the `bottom` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.top(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func top(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .bottom,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .top, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `bottom` to another node's `top` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.bottom(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func bottom<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .top, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .bottom, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `bottom` to the `top` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.bottom(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func bottom(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .top,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .bottom, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `leading` to another node's `trailing` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.leading(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func leading<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .trailing, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .leading, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `leading` to the `trailing` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.leading(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func leading(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .trailing,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .leading, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `trailing` to another node's `leading` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.trailing(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func trailing<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .leading, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .trailing, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `trailing` to the `leading` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.trailing(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func trailing(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .leading,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .trailing, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `centerX` to another node's `centerX` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.centerX(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func centerX<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .centerX, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .centerX, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `centerX` to the `centerX` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.centerX(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func centerX(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .centerX,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .centerX, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `centerY` to another node's `centerY` (by default), plus an offset.
  ///
  /// ```swift
  /// label.pin.centerY(to: card)
  /// ```
  ///
  /// - Parameters:
  ///   - other: The node it is read from, held weakly; never the node itself.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func centerY<Other: LayoutNode>(
    to other: Other, _ attribute: LayoutAttribute = .centerY, offset: LayoutConstant = 0,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .centerY, to: other, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }

  /// Pins the node's `centerY` to the `centerY` (by default) of the node with a tag, plus an offset.
  ///
  /// ```swift
  /// label.pin.centerY(to: .tag(7), offset: 2)
  /// ```
  ///
  /// - Parameters:
  ///   - reference: The tag of the node it is read from, found at activation or once a node
  ///     with the tag joins the container.
  ///   - attribute: The other node's attribute.
  ///   - offset: Added to the other node's value.
  ///   - isolation: Where the nodes live: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: The pin.
  @discardableResult
  public func centerY(
    to reference: LayoutReference, _ attribute: LayoutAttribute = .centerY,
    offset: LayoutConstant = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Pin {
    pin(
      .centerY, to: reference, attribute, offset: offset, isolation: isolation, fileID: fileID,
      line: line)
  }
}
