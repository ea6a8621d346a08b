import Foundation
import PackagePlugin

/// `swift package leak-check`: finds the package's leak checks (Swift Testing tests tagged
/// `.leakCheck` or marked `.checksLeaks`, in any test target), runs them in a `swift test` subprocess, echoes its
/// output, then prints a summary of the checks run and the leaks found, per test, and fails on
/// any leak or failure, or when no leak check ran.
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
    let modules = try testModules(named: options.targets, in: context.package)
    let swift = try context.tool(named: "swift").url
    let workDirectory = context.pluginWorkDirectoryURL
    // A scratch path of its own under the plugin's work directory: the outer `swift package`
    // holds the package's build directory, and a sandboxed plugin may write only there.
    let scratch = workDirectory.appending(path: options.sanitizer.map { "build-\($0)" } ?? "build")
    let shared = options.buildArguments(
      packagePath: context.package.directoryURL.path, scratchPath: scratch.path)

    var environment = ProcessInfo.processInfo.environment
    if options.sanitizer == "address" {
      let suppressions = try writeLeakSuppressions(in: workDirectory)
      let inherited = environment["LSAN_OPTIONS"].map { "\($0):" } ?? ""
      environment["LSAN_OPTIONS"] = inherited + "suppressions=\(suppressions.path)"
      print("leak-check: LeakSanitizer suppressions in \(suppressions.path)")
    }

    var discovery = try listTests(
      swift, shared, eventStream: workDirectory.appending(path: "tests.jsonl"),
      environment: environment)
    try discovery.narrow(toModules: Set(modules), matching: options.filter)
    guard !discovery.checks.isEmpty else {
      print(LeakCheckResult.noChecksHelp(testCount: discovery.testCount, options: options))
      throw LeakCheckFailure(message: "leak-check: FAILED: no leak checks found")
    }
    let found = discovery.modules.map { "\($0.name) \($0.count)" }.joined(separator: ", ")
    print("leak-check: \(discovery.checks.count) leak checks found (\(found))")

    let arguments =
      ["test", "--skip-build"] + shared + discovery.filterArguments
      + options.passthrough
    print("leak-check: swift test --skip-build ... (one --filter per leak check)")
    let (status, output) = try run(swift, arguments, environment: environment, echo: true)
    let result = LeakCheckResult(
      parsing: output, exitStatus: status, checksFound: discovery.checks.count, modules: found)
    print(result.summary)
    if !result.passed {
      throw LeakCheckFailure(message: result.verdict)
    }
  }

  /// The module names of the test targets named `names`, checked to exist.
  private func testModules(named names: [String], in package: Package) throws -> [String] {
    let testTargets = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
      .filter { $0.kind == .test }
    return try names.map { name in
      guard let target = testTargets.first(where: { $0.name == name }) else {
        let known = testTargets.map(\.name).sorted().joined(separator: ", ")
        throw LeakCheckFailure(
          message: "leak-check: no test target named '\(name)' (test targets: \(known))")
      }
      return target.moduleName
    }
  }

  /// Builds the tests and lists them into an event stream, which carries their tags.
  private func listTests(
    _ swift: URL, _ shared: [String], eventStream: URL, environment: [String: String]
  ) throws -> LeakCheckDiscovery {
    try? FileManager.default.removeItem(at: eventStream)
    let arguments =
      ["test", "list"] + shared + [
        "--experimental-event-stream-output", eventStream.path,
        "--experimental-event-stream-version", "0",
      ]
    print("leak-check: swift \(arguments.joined(separator: " "))")
    // The listing names every test in the package: shown only if it fails.
    let (status, output) = try run(swift, arguments, environment: environment, echo: false)
    guard status == 0, let stream = FileManager.default.contents(atPath: eventStream.path) else {
      print(output)
      throw LeakCheckFailure(
        message: "leak-check: FAILED: the tests did not build or could not be listed "
          + "(exit status \(status))")
    }
    return try LeakCheckDiscovery(eventStream: stream)
  }

  /// Runs the tool and returns its exit status and merged output, echoing it as it comes if
  /// `echo` is set.
  private func run(
    _ tool: URL, _ arguments: [String], environment: [String: String], echo: Bool
  ) throws -> (Int32, String) {
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
      if echo { FileHandle.standardOutput.write(chunk) }
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
