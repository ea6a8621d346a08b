import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of the built `affix-demo` executable, with what it printed and how it ended.
///
/// The demo is an executable target, so the tests drive it as a user does: as a process. It is
/// found next to the test bundle (both are products of the same build); `AFFIX_DEMO` overrides
/// the path. Build it first with `swift build --product affix-demo` (`swift test` builds it too).
struct DemoRun: Sendable {
  let arguments: [String]
  let output: String
  let errorOutput: String
  let status: Int32

  /// Runs the demo to completion with `arguments`, its standard output and error piped (so not
  /// a terminal), and `environment` added to this process's environment.
  static func run(
    _ arguments: [String], environment: [String: String] = [:],
    removing removedVariables: [String] = ["NO_COLOR"]
  ) throws -> DemoRun {
    let process = Process()
    process.executableURL = try executable()
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for name in removedVariables { merged[name] = nil }
    merged.merge(environment) { _, new in new }
    process.environment = merged
    let output = try TemporaryFile()
    let errorOutput = try TemporaryFile()
    process.standardOutput = output.handle
    process.standardError = errorOutput.handle
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return DemoRun(
      arguments: arguments, output: try output.contents(), errorOutput: try errorOutput.contents(),
      status: process.terminationStatus)
  }

  /// The demo's path: `AFFIX_DEMO`, else beside the running test bundle, else in `.build/debug`
  /// of the package this file belongs to.
  static func executable() throws -> URL {
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["AFFIX_DEMO"] {
      return URL(fileURLWithPath: path)
    }
    var candidates: [URL] = []
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // The bundle may be a directory (`.xctest` on Darwin): climb until out of it.
    for _ in 0..<4 {
      candidates.append(directory.appendingPathComponent("affix-demo"))
      directory.deleteLastPathComponent()
    }
    let package = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    candidates.append(package.appendingPathComponent(".build/debug/affix-demo"))
    if let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) {
      return found
    }
    throw MissingDemo(searched: candidates.map(\.path))
  }

  /// Whether the output holds an escape character, the start of every ANSI control code.
  var hasControlCodes: Bool {
    output.unicodeScalars.contains("\u{1B}")
  }

  /// The lines, of standard output and error, wider than an 80-column terminal, without
  /// their control codes; a carriage return starts a line too.
  var linesWiderThanATerminal: [String] {
    (output + errorOutput)
      .replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "")
      .split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      .filter { $0.count > 80 }
      .map(String.init)
  }

  var summary: String {
    "affix-demo \(arguments.joined(separator: " ")) exited with \(status)\n"
      + "--- stdout\n\(output)--- stderr\n\(errorOutput)"
  }
}

/// The demo was not built where the tests look for it.
struct MissingDemo: Error, CustomStringConvertible {
  let searched: [String]

  var description: String {
    "affix-demo not found; build it with `swift build --product affix-demo` or set AFFIX_DEMO. "
      + "Searched: \(searched.joined(separator: ", "))"
  }
}

/// A file in the temporary directory that a child process writes into, removed afterwards.
final class TemporaryFile {
  let url: URL
  let handle: FileHandle

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("affix-demo-test-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    handle = try FileHandle(forWritingTo: url)
  }

  func contents() throws -> String {
    try handle.close()
    return String(decoding: try Data(contentsOf: url), as: UTF8.self)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
