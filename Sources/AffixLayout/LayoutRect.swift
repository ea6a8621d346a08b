/// A rectangle in a container's coordinates: an origin and a size, in points.
///
/// ```swift
/// let frame = LayoutRect(x: 10, y: 20, width: 100, height: 40)
/// ```
public struct LayoutRect: Sendable, Hashable, CustomStringConvertible {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width, never negative in a frame the layout writes.
  public var width: Double
  /// The height, never negative in a frame the layout writes.
  public var height: Double

  /// A rectangle at `x`, `y` of the given size.
  ///
  /// - Parameters:
  ///   - x: The left edge.
  ///   - y: The top edge.
  ///   - width: The width.
  ///   - height: The height.
  public init(x: Double = 0, y: Double = 0, width: Double = 0, height: Double = 0) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The empty rectangle at the origin.
  public static let zero = LayoutRect()

  /// The value of `attribute` for this rectangle: an edge, a centre or a length.
  ///
  /// - Parameter attribute: The edge, centre or length to read.
  /// - Returns: Its value, in the rectangle's coordinates.
  public func value(of attribute: LayoutAttribute) -> Double {
    switch attribute {
    case .leading: x
    case .trailing: x + width
    case .centerX: x + width / 2
    case .width: width
    case .top: y
    case .bottom: y + height
    case .centerY: y + height / 2
    case .height: height
    }
  }

  /// `(x, y, width × height)`.
  public var description: String { "(\(x), \(y), \(width) × \(height))" }
}

/// An edge, a centre or a length of a node's frame, as a draft pins it.
public enum LayoutAttribute: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The left edge.
  case leading
  /// The right edge.
  case trailing
  /// The horizontal centre.
  case centerX
  /// The width.
  case width
  /// The top edge.
  case top
  /// The bottom edge.
  case bottom
  /// The vertical centre.
  case centerY
  /// The height.
  case height

  /// Whether the attribute is horizontal (`leading`, `trailing`, `centerX`, `width`).
  public var isHorizontal: Bool {
    switch self {
    case .leading, .trailing, .centerX, .width: true
    case .top, .bottom, .centerY, .height: false
    }
  }

  /// Whether the attribute is a length rather than a position.
  public var isLength: Bool { self == .width || self == .height }

  /// The attribute's name, as in the pin's DSL.
  public var description: String {
    switch self {
    case .leading: "leading"
    case .trailing: "trailing"
    case .centerX: "centerX"
    case .width: "width"
    case .top: "top"
    case .bottom: "bottom"
    case .centerY: "centerY"
    case .height: "height"
    }
  }
}
