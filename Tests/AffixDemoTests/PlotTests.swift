import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("Pictures")
struct PlotTests {
  static let pictures = [
    "timing-curves.svg", "springs.svg", "draggable-trajectory.svg", "draggable-distance.svg",
    "draggable-rubber-band.svg", "benchmark-ratios.svg", "retargeting.svg",
    "retargeting-velocity.svg", "decay.svg", "independent-groups.svg",
  ]

  @Test func plotWritesEveryPictureAsWellFormedSVG() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("affix-plot-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try DemoRun.run(["plot", directory.path])
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
    for name in Self.pictures {
      let file = directory.appendingPathComponent(name)
      #expect(
        SceneTests.collapsingSpaces(run.output).contains("wrote \(file.path)"), "\(run.summary)")
      let data = try Data(contentsOf: file)
      let outline = SVGOutline(data)
      #expect(outline.error == nil, "\(name): \(outline.error ?? "")")
      #expect(outline.root == "svg", "\(name)")
      #expect(outline.count(of: "polyline") >= 2, "\(name) draws its curves")
      #expect(outline.count(of: "text") >= 5, "\(name) labels its axes")
    }
  }

  /// Where each picture lives, as `PlotCommand.home(of:)` says: a guide's in its catalog.
  static func home(of name: String) -> String {
    switch name {
    case "benchmark-ratios.svg", "draggable-distance.svg": "Docs/images"
    case "draggable-trajectory.svg", "draggable-rubber-band.svg":
      "Sources/AffixDraggable/AffixDraggable.docc/Resources"
    default: "Sources/AffixDancing/AffixDancing.docc/Resources"
    }
  }

  @Test func thePicturesInTheRepositoryAreTheOnesPlotWrites() throws {
    let repository = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("affix-plot-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let run = try DemoRun.run(["plot", directory.path])
    #expect(run.status == 0, "\(run.summary)")
    for name in Self.pictures {
      let written = try Data(contentsOf: directory.appendingPathComponent(name))
      let home = Self.home(of: name)
      let committed = try? Data(
        contentsOf: repository.appendingPathComponent(home).appendingPathComponent(name))
      #expect(
        committed == written,
        "\(home)/\(name) is stale: regenerate it with `swift run affix-demo plot`")
      let elsewhere = [
        "Docs/images", "Sources/AffixDancing/AffixDancing.docc/Resources",
        "Sources/AffixDraggable/AffixDraggable.docc/Resources",
      ].filter { $0 != home }
      for folder in elsewhere {
        let copy = repository.appendingPathComponent(folder).appendingPathComponent(name)
        #expect(
          !FileManager.default.fileExists(atPath: copy.path),
          "\(folder)/\(name) is a second copy of \(home)/\(name)")
      }
    }
  }
}

/// The elements of an XML document as Foundation's parser sees them, and its first error.
final class SVGOutline: NSObject, XMLParserDelegate {
  private(set) var root: String?
  private(set) var elements: [String: Int] = [:]
  private(set) var error: String?

  init(_ data: Data) {
    super.init()
    let parser = XMLParser(data: data)
    parser.delegate = self
    if !parser.parse(), error == nil {
      error = parser.parserError.map { "\($0)" } ?? "not well-formed"
    }
  }

  func count(of element: String) -> Int {
    elements[element, default: 0]
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
    elements[elementName, default: 0] += 1
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    error = "\(parseError)"
  }
}
