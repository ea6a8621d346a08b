public import Testing

/// Runs `body` with a ``LeakTracker`` and records a Swift Testing issue if any object tracked in
/// it is still alive when `body` returns or throws.
///
/// The issue lists every survivor, one `LEAK:` line each, with its type, label, where it was
/// tracked and a retain path when its stored properties or associations show one.
///
/// ```swift
/// @Test(.tags(.leakCheck))
/// func releasingTheHostReleasesItsValues() {
///   expectNoLeaks { tracker in
///     let host = Host()
///     let value = Value()
///     Associations(of: host)[ValueKey.self] = value
///     tracker.track(host)
///     tracker.track(value)
///   }
/// }
/// ```
///
/// - Parameters:
///   - sourceLocation: Where the issue is recorded.
///   - body: The scope. Objects it creates and does not return should be gone when it ends.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func expectNoLeaks<R>(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: (LeakTracker) throws -> R
) rethrows -> R {
  let tracker = LeakTracker()
  defer { recordLeaks(in: tracker.report(), at: sourceLocation) }
  return try body(tracker)
}

/// Runs the asynchronous `body` with a ``LeakTracker`` and records a Swift Testing issue if any
/// tracked object outlives it.
///
/// The issue is recorded if any object tracked in `body` is still alive when `body` returns
/// or throws. See ``expectNoLeaks(sourceLocation:_:)-9fjqw``.
///
/// - Parameters:
///   - sourceLocation: Where the issue is recorded.
///   - body: The scope. Objects it creates and does not return should be gone when it ends.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public nonisolated(nonsending) func expectNoLeaks<R>(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (LeakTracker) async throws -> R
) async rethrows -> R {
  let tracker = LeakTracker()
  defer { recordLeaks(in: tracker.report(), at: sourceLocation) }
  return try await body(tracker)
}

/// Runs `body` with a ``LeakTracker`` and returns what it found, recording nothing: the entry
/// point for XCTest, and for checks of the checker.
///
/// ```swift
/// func testClosingReleasesTheDocument() {
///   let (_, report) = checkForLeaks { tracker in
///     let document = Document()
///     tracker.track(document)
///     document.close()
///   }
///   XCTAssertTrue(report.isClean, "\(report)")
/// }
/// ```
///
/// - Returns: What `body` returns, and the report on the objects tracked in it.
public func checkForLeaks<R>(
  _ body: (LeakTracker) throws -> R
) rethrows -> (result: R, report: LeakReport) {
  let tracker = LeakTracker()
  let result = try body(tracker)
  return (result, tracker.report())
}

private func recordLeaks(in report: LeakReport, at sourceLocation: SourceLocation) {
  guard !report.isClean else { return }
  Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
}
