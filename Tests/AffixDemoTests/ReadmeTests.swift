import Foundation
import Testing

/// What a newcomer meets first: the README's commands, links and pictures must all be there.
/// (`.ci/readme-samples.sh` compiles and runs its Swift blocks.)
@Suite("The README")
struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func readme() throws -> String {
    try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  @Test func theTwoCommandsComeFirst() throws {
    let lines = try Self.readme().split(separator: "\n", omittingEmptySubsequences: false)
    let firstBlock = try #require(lines.firstIndex { $0.hasPrefix("```") })
    #expect(lines[firstBlock + 1] == "swift run affix-demo")
    #expect(lines[firstBlock + 2] == "swift test")
  }

  /// A first page, not a manual: depth goes to `Docs/` and the DocC catalogs.
  @Test func itStaysUnderTwoHundredLines() throws {
    let lines = try Self.readme().split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count < 200, "README.md has \(lines.count) lines: move depth to Docs/")
  }

  @Test func everyLocalLinkAndPictureExists() throws {
    let readme = try Self.readme()
    let links = try Regex(#"\]\(([^)#\s]+)\)"#)
    var checked = 0
    for match in readme.matches(of: links) {
      guard let target = match.output[1].substring.map(String.init), !target.contains("://")
      else { continue }
      checked += 1
      let path = Self.root.appendingPathComponent(target).path
      #expect(FileManager.default.fileExists(atPath: path), "README links to \(target)")
    }
    #expect(checked > 5)
  }

  @Test func everySwiftBlockIsAWholeProgramOrManifest() throws {
    let blocks = try Self.readme().components(separatedBy: "```swift\n").dropFirst()
    #expect(blocks.count >= 3)
    for block in blocks {
      let code = block.components(separatedBy: "\n```")[0]
      // Blocks are compiled one by one as programs: each brings its own imports.
      #expect(
        code.hasPrefix("import ") || code.hasPrefix("// swift-tools-version"),
        "a README sample must be complete: \(code.prefix(80))")
    }
  }

  @Test func theSamplesAreCheckedByTheCIScript() throws {
    let script = Self.root.appendingPathComponent(".ci/readme-samples.sh")
    #expect(FileManager.default.isExecutableFile(atPath: script.path))
  }
}
