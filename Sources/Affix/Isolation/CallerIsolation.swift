/// The check every API makes that keeps a caller's non-`Sendable` state for later: the caller
/// must run on an actor, whose isolation the kept state then lives in.
///
/// Such an API takes `isolation: isolated (any Actor)? = #isolation`: the optional form, which
/// a `nonisolated(nonsending)` helper hands on (its isolation is its caller's, known only at
/// run time). Code outside any actor passes `nil`, and there is nowhere to run what it would
/// keep, so the API refuses the call with a report instead:
///
/// ```swift
/// public func onBlink(
///   isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
///   _ body: @escaping () -> Void
/// ) {
///   guard let isolation = CallerIsolation.required(
///     isolation, by: "onBlink", subsystem: "Blink", fileID: fileID, line: line)
///   else { return }
///   keep(IsolatedCallback(isolation: isolation, body))
/// }
/// ```
///
/// See <doc:MemoryAndThreads#Isolation-follows-the-host>.
public enum CallerIsolation {
  /// Returns `isolation`, or reports that `call` was made outside any actor and returns `nil`.
  ///
  /// - Parameters:
  ///   - isolation: The caller's isolation, as the API received it.
  ///   - call: The API's name, for the report: `"animate"`.
  ///   - subsystem: The reporting module or mixin, as in ``Diagnostic/subsystem``.
  ///   - fileID: The caller's file, passed on from the API's own `#fileID` default.
  ///   - line: The caller's line, passed on from the API's own `#line` default.
  /// - Returns: `isolation` when there is one; `nil`, reported, when there is none.
  public static func required(
    _ isolation: (any Actor)?, by call: String, subsystem: String,
    fileID: String = #fileID, line: Int = #line
  ) -> (any Actor)? {
    if let isolation { return isolation }
    Diagnostics.report(
      subsystem: subsystem, message: refusal(of: call), severity: .error, fileID: fileID,
      line: line)
    return nil
  }

  /// The text of the report for `call` made outside any actor, for a mixin that reports it
  /// its own way (with more context).
  ///
  /// - Parameter call: The API's name: `"animate"`.
  /// - Returns: The report's message.
  public static func refusal(of call: String) -> String {
    "\(call) ignored: called outside any actor, where nothing it keeps for the host could run; "
      + "call it from the actor the host lives in (a @MainActor or actor method, or a "
      + "nonisolated(nonsending) helper that one calls)"
  }
}
