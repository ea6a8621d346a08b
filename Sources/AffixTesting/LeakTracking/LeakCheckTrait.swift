public import Testing

extension LeakTracker {
  /// The tracker of the test running on this task, when it has the ``LeakCheckTrait``.
  ///
  /// ```swift
  /// @Test(.checksLeaks)
  /// func dismissingTheSheetReleasesIt() {
  ///   let sheet = Sheet()
  ///   LeakTracker.current?.track(sheet)
  ///   sheet.dismiss()
  /// }
  /// ```
  @TaskLocal public static var current: LeakTracker?
}

/// Gives every test it applies to a ``LeakTracker`` in ``LeakTracker/current``, and checks it
/// for leaks when the test ends.
///
/// It records an issue when the test ends with tracked objects still alive: a leak check that
/// spans the whole test rather than a scope inside it.
///
/// Apply it to a test or to a suite (it applies to every test inside). Each test case of a
/// parameterized test gets its own tracker.
///
/// `swift package leak-check` runs the tests it applies to, as it runs those tagged
/// `.leakCheck`. The test listing it reads shows tags but no other trait, so it finds this one
/// where it is written: write `.checksLeaks` in the `@Test` or `@Suite` attribute itself.
public struct LeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
  /// Applies to every test in a suite it is applied to.
  public var isRecursive: Bool { true }

  /// Runs the test with a fresh tracker and reports its survivors when the test returns.
  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else {
      try await function()
      return
    }
    let tracker = LeakTracker()
    defer {
      let report = tracker.report()
      if !report.isClean {
        Issue.record(Comment(rawValue: report.description), sourceLocation: test.sourceLocation)
      }
    }
    try await LeakTracker.$current.withValue(tracker, operation: function)
  }
}

extension Trait where Self == LeakCheckTrait {
  /// Checks that everything tracked in ``LeakTracker/current`` during the test is released
  /// when it ends.
  public static var checksLeaks: Self { LeakCheckTrait() }
}
