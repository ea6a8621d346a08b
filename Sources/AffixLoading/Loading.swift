import Affix
public import AffixScheduling

/// A class that shows a loading indicator while it works, only when the work is slow.
///
/// Conform, provide the indicator, and call ``startLoading(message:)`` and
/// ``stopLoading(_:)`` around slow work. All the state lives in a ``LoadingController``
/// attached to the instance, so the conforming class adds no stored properties.
///
/// ```swift
/// final class PackageResolver: Loading {
///   func makeLoadingIndicator() -> any LoadingIndicator { TerminalSpinner.standardError() }
///
///   func resolve() async throws {
///     startLoading(message: "Resolving packages")
///     do {
///       try await fetchGraph()
///       stopLoading()
///     } catch {
///       stopLoading(.failure)
///       throw error
///     }
///   }
/// }
/// ```
///
/// Override ``loadingScheduler`` to time the indicator elsewhere than on the main queue (a
/// `VirtualTimeScheduler` in tests), and ``loadingOptions`` to change the grace time, the
/// minimum show time or the tick. Both are read once, when the controller is created.
public protocol Loading: AnyObject {
  /// Makes the indicator this object shows; called once, the first time it loads.
  func makeLoadingIndicator() -> any LoadingIndicator

  /// The scheduler that times and calls the indicator: `DispatchScheduler/main` by default.
  var loadingScheduler: any Scheduler { get }

  /// The timing rules: ``LoadingOptions/standard`` by default.
  var loadingOptions: LoadingOptions { get }
}

extension Loading {
  /// The main queue's scheduler.
  public var loadingScheduler: any Scheduler {
    DispatchScheduler.main
  }

  /// The standard timing rules.
  public var loadingOptions: LoadingOptions {
    .standard
  }

  /// The controller that holds this object's loading state, attached on first use.
  public var loadingController: LoadingController {
    Associations(of: self).capability(LoadingController.self) {
      LoadingController(
        host: self, indicator: makeLoadingIndicator(), scheduler: loadingScheduler,
        options: loadingOptions)
    }
  }

  /// Starts a piece of slow work: the indicator appears after the grace time unless the work
  /// ends first. Calls nest; see ``LoadingController/start(message:)``.
  public func startLoading(message: String? = nil) {
    loadingController.start(message: message)
  }

  /// Ends a piece of work started with ``startLoading(message:)``; see
  /// ``LoadingController/stop(_:)``.
  public func stopLoading(_ outcome: LoadingOutcome = .success) {
    loadingController.stop(outcome)
  }

  /// Where this object's indicator is in its life; `idle` if it never loaded.
  public var loadingState: LoadingState {
    LoadingController.attached(to: self)?.state ?? .idle
  }

  /// Whether some ``startLoading(message:)`` is not yet balanced by a stop.
  public var isLoading: Bool {
    LoadingController.attached(to: self)?.isLoading ?? false
  }
}
