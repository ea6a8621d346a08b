#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A message about bad input or a call made in the wrong state, reported instead of a crash.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
  /// The part of Affix that reports it, such as `"dance"`, `"loading"` or `"drag"`.
  public let subsystem: String

  /// What went wrong and what was done instead, in one sentence.
  public let message: String

  /// Creates a diagnostic.
  package init(subsystem: String, message: String) {
    self.subsystem = subsystem
    self.message = message
  }

  /// The line the default handler prints: `affix[subsystem]: message`.
  public var description: String {
    "affix[\(subsystem)]: \(message)"
  }
}

/// Where forgiving APIs report misuse.
///
/// Calls that make no sense (a stop without a start, progress outside 0...1, a dead host) leave
/// state consistent and report a ``Diagnostic`` here. By default each is printed as one line
/// on standard error. Replace the handler to route them elsewhere, or scope one to a test:
///
/// ```swift
/// let messages = Mutex<[Diagnostic]>([])
/// Diagnostics.withHandler({ d in messages.withLock { $0.append(d) } }, operation: {
///   controller.stopLoading()  // one stop too many
/// })
/// ```
public enum Diagnostics {
  @TaskLocal private static var scopedHandler: (@Sendable (Diagnostic) -> Void)?

  private static let globalHandler = Locked<(@Sendable (Diagnostic) -> Void)?>(nil)

  /// Reports `diagnostic` to the scoped handler if one is set on this task, else to the global
  /// handler.
  package static func report(_ diagnostic: Diagnostic) {
    if let scopedHandler {
      scopedHandler(diagnostic)
    } else if let handler = globalHandler.withLock({ $0 }) {
      handler(diagnostic)
    } else {
      printToStandardError(diagnostic.description)
    }
  }

  /// Reports a message from `subsystem`.
  package static func report(_ subsystem: String, _ message: String) {
    report(Diagnostic(subsystem: subsystem, message: message))
  }

  /// Replaces the global handler; `nil` restores the default, which prints to standard error.
  public static func setHandler(_ handler: (@Sendable (Diagnostic) -> Void)?) {
    globalHandler.withLock { $0 = handler }
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
  public static func withHandler<T>(
    _ handler: @escaping @Sendable (Diagnostic) -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws -> T
  ) async rethrows -> T {
    try await $scopedHandler.withValue(handler, operation: body, isolation: isolation)
  }

  private static func printToStandardError(_ line: String) {
    var line = line
    line.append("\n")
    line.withUTF8 { bytes in
      _ = write(2, bytes.baseAddress, bytes.count)
    }
  }
}
