public import Testing

extension LeakTracker {
  /// Reports the tracked objects still alive, giving them until `timeout` to be released.
  ///
  /// It is for objects that something else releases after the scope ends, on another thread.
  ///
  /// It sweeps and checks at once, as ``report()`` does, and returns as soon as nothing tracked
  /// is alive; otherwise it checks again every few milliseconds of real time until `timeout`
  /// has passed, and then reports the survivors. A clean scope costs no waiting at all.
  ///
  /// Use it when the release does not happen on the caller's thread by the end of the scope:
  /// an action a Dispatch queue still holds, a task that has not finished, a capability whose
  /// last call is delivered on the main queue. Values of dead hosts in the shared association
  /// table need no waiting: ``report()`` sweeps them on the caller's thread.
  ///
  /// - Parameter timeout: How long, in real time, the survivors have to go.
  /// - Returns: The report after the last check.
  public func report(waitingUpTo timeout: Duration) async -> LeakReport {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    var report = self.report()
    while !report.isClean, clock.now < deadline {
      // Real time is the property checked here: how soon others release what was tracked.
      try? await clock.sleep(for: Self.pollInterval)
      report = self.report()
    }
    return report
  }

  private static let pollInterval = Duration.milliseconds(5)
}

/// Runs `body` with a ``LeakTracker`` and records a Swift Testing issue if any tracked object
/// outlives it by `timeout`.
///
/// The issue is recorded if any object tracked in `body` is still alive `timeout` after `body`
/// returns or throws.
///
/// The form for objects released asynchronously, by another thread, after the scope ends; see
/// ``LeakTracker/report(waitingUpTo:)``. When everything is released on the caller's thread by
/// the end of the scope (hosts and their associated values included: the report sweeps the
/// shared table), use ``expectNoLeaks(sourceLocation:_:)-9fjqw`` or
/// ``expectNoLeaks(sourceLocation:_:)-9tnvz``, which do not wait and so catch a release that
/// happens late.
///
/// ```swift
/// @Test(.tags(.leakCheck))
/// func aCancelledDownloadReleasesItsDelegate() async {
///   await expectNoLeaks(waitingUpTo: .seconds(2)) { tracker in
///     let delegate = Delegate()
///     let download = session.download(url, delegate: delegate)  // held by the session's queue
///     tracker.track(delegate)
///     download.cancel()
///   }
/// }
/// ```
///
/// - Parameters:
///   - timeout: How long, in real time, tracked objects have to be released after `body`.
///   - sourceLocation: Where the issue is recorded.
///   - body: The scope.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public nonisolated(nonsending) func expectNoLeaks<R, Failure: Error>(
  waitingUpTo timeout: Duration,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (LeakTracker) async throws(Failure) -> R
) async throws(Failure) -> R {
  let tracker = LeakTracker()
  let result: Result<R, Failure>
  do {
    result = .success(try await body(tracker))
  } catch {
    result = .failure(error)
  }
  let report = await tracker.report(waitingUpTo: timeout)
  if !report.isClean {
    Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
  }
  return try result.get()
}
