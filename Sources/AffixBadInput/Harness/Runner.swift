import Affix
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A case's name, where it belongs and how it ended.
struct CaseResult: Sendable {
  let name: String
  let module: String
  let entry: String
  let kind: CaseClass
  let outcome: Outcome
  let detail: String
  /// The checks the case made, as its child reported them.
  let checks: Set<Check>
}

/// What the parent needs of a case to run it in a child.
struct CaseHeader: Sendable {
  let name: String
  let module: String
  let entry: String
  let kind: CaseClass
}

/// Runs each case in a child process of this executable, a few at a time, and kills a child
/// that outlives `timeout`: a crash or a hang is counted, never fatal to the run.
struct Runner: Sendable {
  let executable: String
  let jobs: Int
  let timeout: Duration
  let verbose: Bool

  func run(_ cases: [CaseHeader]) -> [CaseResult] {
    let shared = Shared(count: cases.count)
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("affix-badinput-\(getpid())")
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    DispatchQueue.concurrentPerform(iterations: max(1, jobs)) { _ in
      while true {
        let index = shared.next.withLock { next -> Int in
          defer { next += 1 }
          return next
        }
        guard index < cases.count else { return }
        let header = cases[index]
        let output = scratch.appendingPathComponent("\(index).out")
        let (outcome, detail, checks) = runChild(header.name, output: output)
        let result = CaseResult(
          name: header.name, module: header.module, entry: header.entry, kind: header.kind,
          outcome: outcome, detail: detail, checks: checks)
        shared.results.withLock { $0[index] = result }
        if verbose || outcome != .passed {
          shared.printing.withLock { _ in
            print(
              "\(outcome.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)) "
                + "\(header.name)\(detail.isEmpty ? "" : ": \(detail)")")
          }
        }
      }
    }
    return shared.results.withLock { $0.map { $0! } }
  }

  /// Runs one case in a child and reads how it ended.
  private func runChild(_ name: String, output: URL) -> (Outcome, String, Set<Check>) {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    guard let sink = try? FileHandle(forWritingTo: output) else {
      return (.crash, "could not open \(output.path)", [])
    }
    defer { try? sink.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--case", name]
    // A crash is counted, not investigated here: no backtrace, so that it ends at once.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    process.standardOutput = sink
    process.standardError = sink
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    do {
      try process.run()
    } catch {
      return (.crash, "could not start: \(error)", [])
    }
    let seconds = Double(timeout.components.seconds)
    if ended.wait(timeout: .now() + seconds) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      ended.wait()
      return (.hang, "killed after \(timeout.components.seconds) s", [])
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    let reported = lines.last { $0.hasPrefix("OUTCOME ") }
    let checks = Set(
      (lines.last { $0.hasPrefix("CHECKS ") }?.dropFirst("CHECKS ".count) ?? "")
        .split(separator: ",").compactMap { Check(rawValue: String($0)) })
    let detail = reported.map { line in
      String(line.dropFirst("OUTCOME ".count).split(separator: "\t").dropFirst().first ?? "")
    }
    if process.terminationReason == .uncaughtSignal {
      let last =
        lines.last { $0.contains("Fatal error") } ?? lines.last { !$0.hasPrefix("OUTCOME ") }
      return (
        .crash, "signal \(process.terminationStatus) \(last.map(String.init) ?? "")", checks
      )
    }
    let status = process.terminationStatus
    guard reported != nil, let outcome = Outcome(exitStatus: status) else {
      let last = lines.last.map(String.init) ?? ""
      return (.crash, "exit \(status) \(last)", checks)
    }
    return (outcome, detail ?? "", checks)
  }

  /// What the workers share.
  private final class Shared: Sendable {
    let next = LockedState(0)
    let results: LockedState<[CaseResult?]>
    let printing = LockedState(())

    init(count: Int) {
      results = LockedState(Array(repeating: nil, count: count))
    }
  }
}

/// Runs the case `name` in this process, prints its outcome, and exits with it.
@MainActor func runCase(named name: String, in cases: [BadInputCase]) async -> Never {
  guard let found = cases.first(where: { $0.name == name }) else {
    print("no case named \(name)")
    terminate(2)
  }
  let probe = Probe()
  await found.body(probe)
  var findings = probe.findings
  var checks = probe.checks
  let heard = DiagnosticLog.shared.all
  switch found.report {
  case .optional: break
  case .required:
    checks.insert(.diagnostic)
    if heard.isEmpty { findings.append((.missingDiagnostic, "no diagnostic reported")) }
  case .atCaller:
    checks.insert(.diagnosticAtCaller)
    if heard.isEmpty {
      findings.append((.missingDiagnostic, "no diagnostic reported"))
    } else if !heard.contains(where: { $0.fileID.hasPrefix("AffixBadInput/") }) {
      let places = heard.map { "\($0.fileID):\($0.line)" }.joined(separator: ", ")
      findings.append((.missingDiagnostic, "no diagnostic names the caller's line (\(places))"))
    }
  }
  let outcome = findings.first?.outcome ?? .passed
  let detail = findings.map(\.detail).joined(separator: "; ")
  print("CHECKS \(checks.sorted().map(\.rawValue).joined(separator: ","))")
  print("OUTCOME \(outcome.rawValue)\t\(detail.replacingOccurrences(of: "\n", with: " "))")
  terminate(outcome.exitStatus)
}

/// Ends the process with `status`: `exit` of the platform's C library, named so, as Foundation
/// may bring another in.
func terminate(_ status: Int32) -> Never {
  #if canImport(Glibc)
    Glibc.exit(status)
  #else
    Darwin.exit(status)
  #endif
}
