#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A message about bad input or a call made in the wrong state, reported instead of a crash.
///
/// A mixin reports one through ``Diagnostics/report(subsystem:message:severity:fileID:line:)``,
/// passing on the call site of its public entry point, so that the message names the user's line.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How bad a reported misuse is.
  public enum Severity: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The call made no sense and was ignored or corrected; nothing was lost.
    case warning
    /// Work the caller asked for could not be done, or was dropped.
    case error

    /// Whether `lhs` is less severe than `rhs`: a warning is less severe than an error.
    ///
    /// ```swift
    /// let serious = reports.filter { $0.severity >= .error }
    /// ```
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `warning` or `error`.
    public var description: String { self == .warning ? "warning" : "error" }
  }

  /// The part of Affix (or of a mixin built on it) that reports it, such as `"dance"`,
  /// `"loading"` or `"drag"`.
  public let subsystem: String

  /// What went wrong and what was done instead, in one sentence.
  public let message: String

  /// How bad it is; most misuse is a ``Severity/warning``.
  public let severity: Severity

  /// The file of the call that was misused, as `#fileID` gives it (`"App/Card.swift"`).
  public let fileID: String

  /// The line of the call that was misused.
  public let line: Int

  /// Creates a diagnostic; `fileID` and `line` name the call that was misused, by default the
  /// line that creates it.
  ///
  /// ```swift
  /// let diagnostic = Diagnostic(subsystem: "blink", message: "Nothing is blinking; ignored.")
  /// ```
  public init(
    subsystem: String, message: String, severity: Severity = .warning,
    fileID: String = #fileID, line: Int = #line
  ) {
    self.subsystem = subsystem
    self.message = message
    self.severity = severity
    self.fileID = fileID
    self.line = line
  }

  /// The line the default handler prints, without the call site: `affix[subsystem]: message`,
  /// with `error: ` before the message for an ``Severity/error``.
  public var description: String {
    "affix[\(subsystem)]: \(severity == .error ? "error: " : "")\(message)"
  }
}

/// Where forgiving APIs report misuse.
///
/// Calls that make no sense (a stop without a start, progress outside 0...1, a dead host) leave
/// state consistent and report a ``Diagnostic`` here. By default each is printed as one line
/// on standard error. Replace the handler to route them elsewhere, or scope one to a test:
///
/// ```swift
/// let messages = LockedState<[Diagnostic]>([])
/// Diagnostics.withHandler({ d in messages.withLock { $0.append(d) } }, operation: {
///   controller.stopLoading()  // one stop too many
/// })
/// ```
public enum Diagnostics {
  @TaskLocal private static var scopedHandler: (@Sendable (Diagnostic) -> Void)?

  private static let globalHandler = LockedState<(@Sendable (Diagnostic) -> Void)?>(
    unchecked: nil, processWide: .diagnosticsHandler)

  /// Reports `diagnostic` to the scoped handler if one is set on this task, else to the global
  /// handler, else to standard error.
  ///
  /// The handler runs on the caller's thread, outside every lock of the library; call this
  /// outside your own locks too.
  ///
  /// ```swift
  /// Diagnostics.report(Diagnostic(subsystem: "blink", message: "Interval is 0; using 1 s."))
  /// ```
  public static func report(_ diagnostic: Diagnostic) {
    if let scopedHandler {
      scopedHandler(diagnostic)
    } else if let handler = globalHandler.withLockUnchecked({ $0 }) {
      handler(diagnostic)
    } else {
      printToStandardError("\(diagnostic) (\(diagnostic.fileID):\(diagnostic.line))")
    }
  }

  /// Reports a message from `subsystem` about the call at `fileID`:`line`.
  ///
  /// A public entry point takes `fileID: String = #fileID, line: Int = #line` and passes them
  /// here, so that the report names its caller's line:
  ///
  /// ```swift
  /// public func blink(every interval: Duration, fileID: String = #fileID, line: Int = #line) {
  ///   guard interval > .zero else {
  ///     return Diagnostics.report(
  ///       subsystem: "blink", message: "blink(every: \(interval)) needs a positive interval.",
  ///       fileID: fileID, line: line)
  ///   }
  ///   // ...
  /// }
  /// ```
  public static func report(
    subsystem: String, message: String, severity: Diagnostic.Severity = .warning,
    fileID: String = #fileID, line: Int = #line
  ) {
    report(
      Diagnostic(
        subsystem: subsystem, message: message, severity: severity, fileID: fileID, line: line))
  }

  /// Replaces the global handler; `nil` restores the default, which prints to standard error.
  public static func setHandler(_ handler: (@Sendable (Diagnostic) -> Void)?) {
    var replaced = handler
    globalHandler.withLockUnchecked { swap(&$0, &replaced) }
    // The old handler goes here, outside the lock: its captures may be the last references
    // to user objects.
    _ = consume replaced
  }

  /// Runs `body` with `handler` receiving the diagnostics reported on this task, including
  /// child tasks, and by work that a virtual-time scheduler runs inside `body`.
  ///
  /// With a named handler, `body` reads best as a trailing closure:
  /// `Diagnostics.withHandler(record) { ... }`. With a closure literal for each, label the
  /// second: `Diagnostics.withHandler({ ... }, operation: { ... })`.
  public static func withHandler<T>(
    _ handler: @escaping @Sendable (Diagnostic) -> Void, operation body: () throws -> T
  ) rethrows -> T {
    try $scopedHandler.withValue(handler, operation: body)
  }

  /// Runs the async `body` with `handler` receiving the diagnostics reported on this task.
  public nonisolated(nonsending) static func withHandler<T>(
    _ handler: @escaping @Sendable (Diagnostic) -> Void, operation body: () async throws -> T
  ) async rethrows -> T {
    try await $scopedHandler.withValue(handler, operation: body, isolation: #isolation)
  }

  private static func printToStandardError(_ line: String) {
    var line = line
    line.append("\n")
    line.withUTF8 { bytes in
      _ = write(2, bytes.baseAddress, bytes.count)
    }
  }
}
