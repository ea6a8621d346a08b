/// What a `swift test` run of the leak checks printed, read line by line.
///
/// It understands Swift Testing's console output (issues, with their comments on the lines
/// that follow; known issues are not failures), XCTest's summary lines and LeakSanitizer's
/// report.
struct LeakCheckResult {
  /// One `LEAK:` line and the test that reported it.
  struct Leak {
    let test: String
    let line: String
  }

  var exitStatus: Int32
  var checksFound: Int
  var modules: String
  var swiftTestingTests: Int?
  var xcTests: Int?
  var failedTests: [String] = []
  var leaks: [Leak] = []
  var sanitizerReports: [String] = []
  var buildFailed = false

  init(parsing output: String, exitStatus: Int32, checksFound: Int, modules: String) {
    self.exitStatus = exitStatus
    self.checksFound = checksFound
    self.modules = modules
    // The test whose unexpected issue's comment lines follow, if any.
    var testWithIssue: String?
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      let text = String(line)
      if text.hasPrefix("↳ ") || text.hasPrefix("  ") {
        let comment = text.drop { $0 == "↳" || $0 == " " }
        if let testWithIssue, comment.hasPrefix("LEAK:") {
          leaks.append(Leak(test: testWithIssue, line: String(comment)))
        }
        continue
      }
      testWithIssue = Self.testWithUnexpectedIssue(in: text)
      read(text)
    }
  }

  /// The test named by `✘ Test <name> recorded an issue ...`: its display name or function
  /// name, with arguments for a parameterized test. Known issues start with another symbol.
  private static func testWithUnexpectedIssue(in line: String) -> String? {
    guard line.hasPrefix("✘ Test "), let end = line.range(of: " recorded an issue") else {
      return nil
    }
    return String(line[line.index(line.startIndex, offsetBy: "✘ Test ".count)..<end.lowerBound])
  }

  private mutating func read(_ line: String) {
    if let range = line.range(of: "LEAK:"), line.contains("error:"), !line.contains("known") {
      // An XCTest failure, `<file>:<line>: error: <test> : <message>`, whose test is named
      // `Class.testName` (or `-[Module.Class testName]`) before the first " : ".
      let head = line[..<range.lowerBound]
      let test = head.range(of: "error: ").flatMap { start in
        head[start.upperBound...].range(of: " : ").map { head[start.upperBound..<$0.lowerBound] }
      }
      leaks.append(
        Leak(
          test: test.map(String.init) ?? "an XCTest case", line: String(line[range.lowerBound...])))
    } else if line.contains("Test run with "), let count = number(after: "Test run with ", in: line)
    {
      swiftTestingTests = count
    } else if line.contains("Executed "), let count = number(after: "Executed ", in: line) {
      xcTests = max(xcTests ?? 0, count)
    } else if line.hasPrefix("✘ Test "), let end = line.range(of: " failed after ") {
      let name = line[line.index(line.startIndex, offsetBy: "✘ Test ".count)..<end.lowerBound]
      failedTests.append(String(name))
    } else if line.contains("Sanitizer")
      && (line.contains("ERROR: ") || line.hasPrefix("SUMMARY: "))
    {
      sanitizerReports.append(line)
    } else if line.hasPrefix("error: ") && (line.contains("compile") || line.contains("build")) {
      buildFailed = true
    }
  }

  private func number(after prefix: String, in line: String) -> Int? {
    guard let range = line.range(of: prefix) else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
  }

  var testsRun: Int { (swiftTestingTests ?? 0) + (xcTests ?? 0) }

  /// The tests that reported leaks, each once, in the order they reported them.
  var leakingTests: [String] {
    var seen: Set<String> = []
    return leaks.map(\.test).filter { seen.insert($0).inserted }
  }

  var passed: Bool {
    exitStatus == 0 && leaks.isEmpty && failedTests.isEmpty && sanitizerReports.isEmpty
      && testsRun > 0
  }

  var verdict: String {
    if passed { return "leak-check: passed" }
    if buildFailed { return "leak-check: FAILED: the leak checks did not build" }
    if testsRun == 0 { return "leak-check: FAILED: no leak checks ran (exit status \(exitStatus))" }
    var reasons: [String] = []
    if !leaks.isEmpty {
      reasons.append(
        "\(leaks.count) leak\(leaks.count == 1 ? "" : "s") in "
          + leakingTests.joined(separator: ", "))
    }
    if !failedTests.isEmpty { reasons.append("\(failedTests.count) failed") }
    if !sanitizerReports.isEmpty { reasons.append("sanitizer report") }
    if reasons.isEmpty { reasons.append("exit status \(exitStatus)") }
    return "leak-check: FAILED: " + reasons.joined(separator: "; ")
  }

  var summary: String {
    var lines = ["", "leak-check summary"]
    lines.append("  leak checks found: \(checksFound) (\(modules))")
    lines.append(
      "  leak checks run: \(testsRun) (Swift Testing \(swiftTestingTests ?? 0), "
        + "XCTest \(xcTests ?? 0))")
    lines.append("  leaks found: \(leaks.count)")
    for test in leakingTests {
      lines.append("    in \(test):")
      lines += leaks.filter { $0.test == test }.map { "      \($0.line)" }
    }
    if !failedTests.isEmpty {
      lines.append("  failed tests: \(failedTests.joined(separator: ", "))")
    }
    if !sanitizerReports.isEmpty {
      lines.append("  sanitizer:")
      lines += sanitizerReports.map { "    \($0)" }
    }
    lines.append(verdict)
    return lines.joined(separator: "\n")
  }

  /// What to print when the package has no leak checks to run.
  static func noChecksHelp(testCount: Int, options: LeakCheckOptions) -> String {
    var lines = ["", "leak-check summary", "  leak checks found: 0 (of \(testCount) tests listed)"]
    if !options.targets.isEmpty || options.filter != nil {
      lines.append("  none matches --target or --filter")
    } else {
      lines.append(
        "  a leak check is a Swift Testing test tagged `.leakCheck` or marked `.checksLeaks` "
          + "(import AffixTesting):")
      lines.append(
        "    @Test(.tags(.leakCheck)) func ...  or  @Suite(.checksLeaks) struct ...")
    }
    return lines.joined(separator: "\n")
  }
}
