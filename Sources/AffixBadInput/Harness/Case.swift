import Affix

/// What a case threatens: the kinds of failure bad input has been seen to cause.
enum CaseClass: String, CaseIterable, Comparable, Sendable {
  case crash
  case hang
  case nonFinite = "non-finite"
  case lostValue = "lost value"
  case wrongState = "wrong state"
  case deadHost = "dead host"
  case refusedHost = "refused host"
  /// A callback of the library that calls back into it (Docs/Concurrency.md).
  case reentrant = "re-entrant"

  static func < (lhs: CaseClass, rhs: CaseClass) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// How a case ended: passed, or the first way it failed.
enum Outcome: String, CaseIterable, Sendable {
  case passed
  case crash
  case hang
  case nonFinite = "non-finite"
  case lostValue = "lost value"
  case inconsistent
  case missingDiagnostic = "missing diagnostic"

  /// The exit status a child gives for it; a crash or a hang has none of its own.
  var exitStatus: Int32 {
    switch self {
    case .passed: 0
    case .nonFinite: 10
    case .lostValue: 11
    case .inconsistent: 12
    case .missingDiagnostic: 13
    case .crash, .hang: 1
    }
  }

  init?(exitStatus: Int32) {
    guard let found = Outcome.allCases.first(where: { $0.exitStatus == exitStatus }),
      found != .crash
    else { return nil }
    self = found
  }
}

/// What a case expects `Diagnostics` to hear.
enum Report: Sendable {
  /// At least one diagnostic, naming a line of this executable: the caller's.
  case atCaller
  /// At least one diagnostic, wherever it names (an entry point that takes no call site).
  case required
  /// Nothing checked: a value used as given, or a call that may or may not be refused.
  case optional
}

/// One bad-input case: a public entry point, fed bad input, its state read back.
struct BadInputCase {
  /// Unique, stable: `<module>.<entry point>.<input>`.
  let name: String
  /// The module the entry point belongs to.
  let module: String
  /// The entry point, as the API baseline spells it.
  let entry: String
  let kind: CaseClass
  let report: Report
  let body: @MainActor (Probe) async -> Void
}

/// A check a case makes of what it reads back, named in the results table.
enum Check: String, CaseIterable, Comparable, Sendable {
  /// The figures it reads are finite.
  case finite
  /// The values it set are still there.
  case kept = "value kept"
  /// The state agrees with itself and with what the call's report or documentation says.
  case state
  /// The promised diagnostic was reported, at the caller's line.
  case diagnosticAtCaller = "report at caller"
  /// The promised diagnostic was reported.
  case diagnostic = "report"

  static func < (lhs: Check, rhs: Check) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// Collects what a case found wrong in the state it read back, and which checks it made.
@MainActor final class Probe {
  private(set) var findings: [(outcome: Outcome, detail: String)] = []
  private(set) var checks: Set<Check> = []

  func fail(_ outcome: Outcome, _ detail: String) {
    findings.append((outcome, detail))
  }

  /// Records a lost value unless `condition` holds.
  func kept(_ condition: Bool, _ detail: @autoclosure () -> String) {
    checks.insert(.kept)
    if !condition { fail(.lostValue, detail()) }
  }

  /// Records an inconsistent state unless `condition` holds.
  func consistent(_ condition: Bool, _ detail: @autoclosure () -> String) {
    checks.insert(.state)
    if !condition { fail(.inconsistent, detail()) }
  }

  func finite(_ value: Double, _ detail: @autoclosure () -> String) {
    checks.insert(.finite)
    if !value.isFinite { fail(.nonFinite, "\(detail()) = \(value)") }
  }

  func finite(_ values: [Double], _ detail: @autoclosure () -> String) {
    checks.insert(.finite)
    if let bad = values.first(where: { !$0.isFinite }) { fail(.nonFinite, "\(detail()) = \(bad)") }
  }

  /// Diagnostics heard so far in this process.
  var diagnostics: [Diagnostic] { DiagnosticLog.shared.all }
}

/// Every diagnostic the process reports, whatever thread reports it.
final class DiagnosticLog: Sendable {
  static let shared = DiagnosticLog()
  private let entries = LockedState<[Diagnostic]>([])

  func record(_ diagnostic: Diagnostic) {
    entries.withLock { $0.append(diagnostic) }
  }

  var all: [Diagnostic] { entries.withLock { $0 } }
}
