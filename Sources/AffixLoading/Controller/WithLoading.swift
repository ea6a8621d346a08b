public import AffixScheduling
import Dispatch

/// Runs `work` with a loading indicator that belongs to no object: for a command-line
/// command or a server job.
///
/// The indicator appears if the work outlasts the grace time, shows the progress the work
/// reports through the controller it is given, and disappears with the work's outcome
/// (``LoadingOutcome/failure(_:)`` with the error it threw, ``LoadingOutcome/cancelled`` for
/// `CancellationError`). The call returns, or rethrows, once the indicator has drawn its last
/// line, so a program that exits next never cuts it off.
///
/// The indicator is timed and called on `clock`, by default a queue of the loading
/// module's own, never on the caller's isolation: the spinner draws even while the caller's
/// thread is busy, as the main thread of a command-line program doing synchronous work is.
///
/// ```swift
/// // main.swift of a command-line tool
/// import AffixLoading
///
/// let files = try await withLoading(message: "Indexing") { loading in
///   try index(directory, progress: { done in loading.update(progress: done) })  // synchronous
/// }
/// ```
///
/// - Parameters:
///   - message: The indicator's message.
///   - indicator: What to show; a ``TerminalSpinner`` on standard error by default. It is
///     called on `clock`'s context, so it must be `Sendable`.
///   - clock: Times and calls the indicator; `nil` for a queue of the loading module's own.
///     A `VirtualClock` in tests.
///   - options: The timing rules; unusable values are replaced and reported with the caller's
///     line.
///   - fileID: The caller's file, for that report.
///   - line: The caller's line, for that report.
///   - work: The slow work; it reports progress through the controller it is given.
/// - Returns: What `work` returned.
/// - Throws: What `work` threw.
public nonisolated(nonsending) func withLoading<Result, Failure: Error>(
  message: String? = nil,
  indicator: any LoadingIndicator & Sendable = TerminalSpinner.standardError(),
  clock: (any SchedulingClock)? = nil, options: LoadingOptions = .standard,
  fileID: String = #fileID, line: Int = #line,
  _ work: (LoadingController) async throws(Failure) -> Result
) async throws(Failure) -> Result {
  let controller = LoadingController(
    hostless: indicator, clock: clock ?? LoadingController.ownQueue, options: options,
    fileID: fileID, line: line)
  controller.start(message: message)
  let outcome: Swift.Result<Result, Failure>
  do {
    outcome = .success(try await work(controller))
    controller.stop(.success)
  } catch {
    outcome = .failure(error)
    controller.stop(error is CancellationError ? .cancelled : .failure(error))
  }
  await controller.settled()
  return try outcome.get()
}

extension LoadingController {
  /// The clock of hostless loading: a serial queue that no caller's work blocks.
  static let ownQueue = DispatchClock(queue: DispatchQueue(label: "org.affix.loading"))
}
