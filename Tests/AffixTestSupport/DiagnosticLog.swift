package import Affix

/// Collects the diagnostics reported while a body runs, across the `@Sendable` boundary of a
/// handler.
///
/// `capture` scopes the handler with `Diagnostics.withHandler`, a task-local: only what the
/// body reports on its own task lands here, never what tests running in parallel report.
///
/// ```swift
/// let log = DiagnosticLog.capture { controller.stop() }
/// #expect(log.messages.count == 1)
/// ```
package final class DiagnosticLog: Sendable {
  private let entries = SanitizerVisibleLock<[Diagnostic]>([])

  package init() {}

  /// Runs `body`, and returns a new log of the diagnostics it reported.
  package static func capture(_ body: () throws -> Void) rethrows -> DiagnosticLog {
    let log = DiagnosticLog()
    try log.capture(body)
    return log
  }

  /// Runs `body`, adding the diagnostics it reports to this log, and returns what `body`
  /// returns: for a body whose result the test needs too, or one log over several bodies.
  @discardableResult
  package func capture<T>(_ body: () throws -> T) rethrows -> T {
    try Diagnostics.withHandler(record, operation: body)
  }

  /// Adds `diagnostic`: the handler `capture` installs, for a test that installs its own.
  package func record(_ diagnostic: Diagnostic) {
    entries.withLock { $0.append(diagnostic) }
  }

  /// Every diagnostic, in the order reported.
  package var all: [Diagnostic] { entries.withLock { $0 } }
  package var count: Int { entries.withLock { $0.count } }
  package var messages: [String] { all.map(\.message) }
  package var subsystems: Set<String> { Set(all.map(\.subsystem)) }
  package var lines: [Int] { all.map(\.line) }
  package var fileIDs: Set<String> { Set(all.map(\.fileID)) }
}
