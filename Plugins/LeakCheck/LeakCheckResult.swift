/// What a `swift test` run of the leak-check suite printed, read line by line.
///
/// It understands Swift Testing's console output (issues, with their comments on the lines
/// that follow; known issues are not failures), XCTest's summary lines and LeakSanitizer's
/// report.
struct LeakCheckResult {
  var exitStatus: Int32
  var swiftTestingTests: Int?
  var xcTests: Int?
  var failedTests: [String] = []
  var leaks: [String] = []
  var sanitizerReports: [String] = []
  var buildFailed = false

  init(parsing output: String, exitStatus: Int32) {
    self.exitStatus = exitStatus
    var inUnexpectedIssue = false
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      let text = String(line)
      if text.hasPrefix("↳ ") || text.hasPrefix("  ") {
        let comment = text.drop { $0 == "↳" || $0 == " " }
        if inUnexpectedIssue && comment.hasPrefix("LEAK:") {
          leaks.append(String(comment))
        }
        continue
      }
      inUnexpectedIssue = text.contains(" recorded an issue")
      read(text)
    }
  }

  private mutating func read(_ line: String) {
    if let range = line.range(of: "LEAK:"), line.contains("error:"), !line.contains("known") {
      leaks.append(String(line[range.lowerBound...]))  // an XCTest failure message
    } else if line.contains("Test run with "), let count = number(after: "Test run with ", in: line)
    {
      swiftTestingTests = count
    } else if line.contains("Executed "), let count = number(after: "Executed ", in: line) {
      xcTests = max(xcTests ?? 0, count)
    } else if line.hasPrefix("✘ Test "), line.contains(" failed after ") {
      let name = line.dropFirst("✘ Test ".count).prefix { $0 != " " }
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

  var passed: Bool {
    exitStatus == 0 && leaks.isEmpty && failedTests.isEmpty && sanitizerReports.isEmpty
      && testsRun > 0
  }

  var verdict: String {
    if passed { return "leak-check: passed" }
    if buildFailed { return "leak-check: FAILED: the suite did not build" }
    if testsRun == 0 { return "leak-check: FAILED: no leak checks ran (exit status \(exitStatus))" }
    var reasons: [String] = []
    if !leaks.isEmpty { reasons.append("\(leaks.count) leak\(leaks.count == 1 ? "" : "s")") }
    if !failedTests.isEmpty { reasons.append("\(failedTests.count) failed") }
    if !sanitizerReports.isEmpty { reasons.append("sanitizer report") }
    if reasons.isEmpty { reasons.append("exit status \(exitStatus)") }
    return "leak-check: FAILED: " + reasons.joined(separator: ", ")
  }

  var summary: String {
    var lines = ["", "leak-check summary"]
    lines.append(
      "  tests run: \(testsRun) (Swift Testing \(swiftTestingTests ?? 0), XCTest \(xcTests ?? 0))")
    lines.append("  leaks found: \(leaks.count)")
    lines += leaks.map { "    \($0)" }
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
}
