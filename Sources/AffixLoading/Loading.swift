import Affix
public import AffixScheduling
public import Foundation

/// A class that shows a loading indicator while it works, only when the work is slow.
///
/// Conform, provide the indicator, and call `startLoading(message:)` and
/// ``stopLoading(_:fileID:line:)`` around slow work. All the state lives in a ``LoadingController``
/// attached to the instance, so the conforming class adds no stored properties.
///
/// ```swift
/// final class PackageResolver: Loading {
///   func makeLoadingIndicator() -> any LoadingIndicator { TerminalSpinner.standardError() }
///
///   func resolve() async throws {
///     try await withLoading(message: "Resolving packages") {
///       try await fetchGraph()  // suspends: the main queue is free to draw the spinner
///     }
///   }
/// }
/// ```
///
/// The indicator is timed on the main queue by default, so it draws only while the main
/// thread is free: work that suspends, as above, or work on other threads. A command-line
/// program whose main thread does the work synchronously runs it through the hostless
/// ``withLoading(message:indicator:clock:options:fileID:line:_:)`` instead, which draws on a
/// queue of its own. Loading is started from an actor (the main actor, or the one that owns
/// the host): the indicator is called there, so a nonisolated caller is refused.
///
/// A main-actor class, a view or a view model, conforms for the main actor alone, with an
/// isolated conformance; its indicator is then called on the main actor, and may be a
/// main-actor class too:
///
/// ```swift
/// @MainActor final class ImportView: @MainActor Loading {
///   func makeLoadingIndicator() -> any LoadingIndicator { TerminalSpinner.standardError() }
/// }
/// ```
///
/// Override ``loadingClock`` to time the indicator elsewhere than on the main queue (a
/// `VirtualClock` in tests), and ``loadingOptions`` to change the grace time, the
/// minimum show time or the tick. Both are read once, when the controller is created.
public protocol Loading: AnyObject {
  /// Makes the indicator this object shows; called once, the first time it loads.
  func makeLoadingIndicator() -> any LoadingIndicator

  /// The clock that times and calls the indicator: `DispatchClock/main` by default.
  var loadingClock: any SchedulingClock { get }

  /// The timing rules: ``LoadingOptions/standard`` by default.
  var loadingOptions: LoadingOptions { get }
}

extension Loading {
  /// The main queue's clock.
  public var loadingClock: any SchedulingClock {
    DispatchClock.main
  }

  /// The standard timing rules.
  public var loadingOptions: LoadingOptions {
    .standard
  }

  /// The controller that holds this object's loading state, attached on first use; its
  /// indicator is called in the isolation of the code that first uses it. Unusable
  /// ``loadingOptions`` are replaced and reported with the line of that first use.
  public func loadingController(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> LoadingController {
    // Outside any actor, a controller made now would have nowhere to call its indicator: it is
    // refused (reported) and not attached, so that the first use on an actor makes the real one.
    if isolation == nil, LoadingController.attached(to: self) == nil {
      return LoadingController(
        host: self, indicator: makeLoadingIndicator(), clock: loadingClock,
        options: loadingOptions, isolation: isolation, fileID: fileID, line: line)
    }
    return Associations(of: self).capability(LoadingController.self) {
      LoadingController(
        host: self, indicator: makeLoadingIndicator(), clock: loadingClock,
        options: loadingOptions, isolation: isolation, fileID: fileID, line: line)
    }
  }

  /// Starts a piece of slow work: the indicator appears after the grace time unless the work
  /// ends first. Calls nest; see ``LoadingController/start(message:fileID:line:)``.
  public func startLoading(
    message: String? = nil, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) {
    loadingController(isolation: isolation, fileID: fileID, line: line)
      .start(message: message, fileID: fileID, line: line)
  }

  /// Ends a piece of work started with `startLoading(message:)`; see
  /// ``LoadingController/stop(_:fileID:line:)``.
  public func stopLoading(
    _ outcome: LoadingOutcome = .success, fileID: String = #fileID, line: Int = #line
  ) {
    guard let controller = LoadingController.attached(to: self) else {
      Diagnostics.report(
        subsystem: "loading",
        message: "stop was called more often than start; the extra stop is ignored.",
        fileID: fileID, line: line)
      return
    }
    controller.stop(outcome, fileID: fileID, line: line)
  }

  /// Shows how far the work in progress is, a fraction in `0...1` or `nil` for indeterminate;
  /// see `LoadingController.update(progress:)`.
  public func updateLoading(
    progress fraction: Double?, fileID: String = #fileID, line: Int = #line
  ) {
    guard let controller = LoadingController.attached(to: self) else {
      Diagnostics.report(
        subsystem: "loading",
        message: "update(progress:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
      return
    }
    controller.update(progress: fraction, fileID: fileID, line: line)
  }

  /// Shows a new message for the work in progress; see
  /// ``LoadingController/update(message:fileID:line:)``.
  public func updateLoading(message: String?, fileID: String = #fileID, line: Int = #line) {
    guard let controller = LoadingController.attached(to: self) else {
      Diagnostics.report(
        subsystem: "loading", message: "update(message:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
      return
    }
    controller.update(message: message, fileID: fileID, line: line)
  }

  /// Runs `work` with the indicator, in the caller's isolation, and returns its result or
  /// rethrows its error.
  ///
  /// It starts loading, and stops with the outcome the work had: ``LoadingOutcome/success``
  /// when it returns, ``LoadingOutcome/failure(_:)`` with the error when it throws,
  /// ``LoadingOutcome/cancelled`` when it throws `CancellationError`.
  ///
  /// ```swift
  /// let graph = try await resolver.withLoading(message: "Resolving") {
  ///   try await resolver.fetchGraph()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - message: The indicator's message.
  ///   - progress: A Foundation `Progress` the indicator follows while the work runs (see
  ///     ``LoadingController/follow(_:fileID:line:)``); `nil` for indeterminate progress, or
  ///     to report fractions with ``updateLoading(progress:fileID:line:)``.
  ///   - isolation: Where `work` runs: the caller's isolation.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  ///   - work: The slow work.
  /// - Returns: What `work` returned.
  /// - Throws: What `work` threw.
  public func withLoading<Result, Failure: Error>(
    message: String? = nil, progress: Progress? = nil,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ work: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    // Outside any actor the work runs, reported, with no loading state to show.
    guard
      CallerIsolation.required(
        isolation, by: "withLoading", subsystem: "loading", fileID: fileID, line: line) != nil
    else { return try await work() }
    startLoading(message: message, isolation: isolation, fileID: fileID, line: line)
    if let progress {
      LoadingController.attached(to: self)?.follow(progress, fileID: fileID, line: line)
    }
    do {
      let result = try await work()
      stopLoading(.success, fileID: fileID, line: line)
      return result
    } catch {
      stopLoading(
        error is CancellationError ? .cancelled : .failure(error), fileID: fileID, line: line)
      throw error
    }
  }

  /// Waits until nothing is loading and the indicator has drawn its final line; see
  /// ``LoadingController/settled()``.
  public nonisolated(nonsending) func loadingSettled() async {
    await LoadingController.attached(to: self)?.settled()
  }

  /// Where this object's indicator is in its life; `idle` if it never loaded.
  public var loadingState: LoadingState {
    LoadingController.attached(to: self)?.state ?? .idle
  }

  /// Whether some `startLoading(message:)` is not yet balanced by a stop.
  public var isLoading: Bool {
    LoadingController.attached(to: self)?.isLoading ?? false
  }
}
