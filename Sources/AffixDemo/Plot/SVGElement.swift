/// One element of an SVG picture, written out as well-formed XML with everything escaped.
struct SVGElement: Sendable {
  let name: String
  var attributes: [(String, String)]
  var children: [SVGElement] = []
  var text: String?

  init(
    _ name: String, _ attributes: [(String, String)] = [], text: String? = nil,
    children: [SVGElement] = []
  ) {
    self.name = name
    self.attributes = attributes
    self.text = text
    self.children = children
  }

  /// The element and its children as XML, indented by `depth`.
  func xml(depth: Int = 0) -> String {
    let indent = String(repeating: "  ", count: depth)
    var output = indent + "<" + name
    for (key, value) in attributes {
      output += " \(key)=\"\(Self.escape(value))\""
    }
    if children.isEmpty, text == nil {
      return output + "/>\n"
    }
    output += ">"
    if let text {
      output += Self.escape(text)
    }
    if !children.isEmpty {
      output += "\n"
      for child in children {
        output += child.xml(depth: depth + 1)
      }
      output += indent
    }
    return output + "</\(name)>\n"
  }

  /// A whole document: the XML declaration, then `root`.
  static func document(_ root: SVGElement) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + root.xml()
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}

/// A number as SVG wants it: a few decimals, no exponent, never `nan` or `inf`.
func svgNumber(_ value: Double) -> String {
  guard value.isFinite else { return "0" }
  let rounded = (value * 100).rounded() / 100
  if rounded == rounded.rounded() {
    return String(Int(rounded))
  }
  return String(rounded)
}
