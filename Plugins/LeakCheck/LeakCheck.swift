import Foundation
import PackagePlugin

/// `swift package leak-check`: runs the `LeakCheckTests` target in a `swift test` subprocess,
/// echoes its output, then prints a summary of the tests run and the leaks found, and fails on
/// any leak or failure.
///
/// It runs `swift test` itself rather than `packageManager.test`, which on Linux reports only
/// XCTest results and would pass although a Swift Testing leak check failed.
@main
struct LeakCheck: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let options = try LeakCheckOptions(parsing: arguments)
    if options.showsHelp {
      print(LeakCheckOptions.usage)
      return
    }
    let swift = try context.tool(named: "swift").url
    // A scratch path of its own under the plugin's work directory: the outer `swift package`
    // holds the package's build directory, and a sandboxed plugin may write only there.
    let scratch = context.pluginWorkDirectoryURL
      .appending(path: options.sanitizer.map { "build-\($0)" } ?? "build").path
    let arguments =
      ["test", "--package-path", context.package.directoryURL.path, "--scratch-path", scratch]
      + options.testArguments
    print("leak-check: swift \(arguments.joined(separator: " "))")

    var environment = ProcessInfo.processInfo.environment
    if options.sanitizer == "address" {
      let suppressions = try writeLeakSuppressions(in: context.pluginWorkDirectoryURL)
      let inherited = environment["LSAN_OPTIONS"].map { "\($0):" } ?? ""
      environment["LSAN_OPTIONS"] = inherited + "suppressions=\(suppressions.path)"
      print("leak-check: LeakSanitizer suppressions in \(suppressions.path)")
    }
    let (status, output) = try run(swift, arguments, environment: environment)
    let result = LeakCheckResult(parsing: output, exitStatus: status)
    print(result.summary)
    if !result.passed {
      throw LeakCheckFailure(message: result.verdict)
    }
  }

  /// Runs the tool, echoing its merged output as it comes, and returns its exit status and
  /// output.
  private func run(_ tool: URL, _ arguments: [String], environment: [String: String]) throws -> (
    Int32, String
  ) {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    var output = Data()
    let reader = pipe.fileHandleForReading
    while let chunk = try reader.read(upToCount: 64 * 1024), !chunk.isEmpty {
      FileHandle.standardOutput.write(chunk)
      output.append(chunk)
    }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}

/// Writes the LeakSanitizer suppressions for leaks that belong to the toolchain rather than to
/// the code under test, and returns the file.
private func writeLeakSuppressions(in directory: URL) throws -> URL {
  let file = directory.appending(path: "lsan-suppressions.txt")
  let suppressions = """
    # The XCTest harness leaks its suite runs at exit (swift-corelibs-xctest), even with no
    # XCTest cases; no code under test allocates there.
    leak:libXCTest.so

    """
  try suppressions.write(to: file, atomically: true, encoding: .utf8)
  return file
}

struct LeakCheckFailure: Error, CustomStringConvertible {
  let message: String

  var description: String { message }
}
