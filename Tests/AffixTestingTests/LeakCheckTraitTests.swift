import AffixTesting
import Testing

private final class Kept: Sendable {}

private final class Released {}

@Suite struct LeakCheckTraitTests {
  @Test(.checksLeaks) func theTraitGivesTheTestATrackerCheckedWhenItEnds() {
    #expect(LeakTracker.current != nil)
    let released = Released()
    LeakTracker.current?.track(released)
  }

  @Test(.checksLeaks, arguments: [1, 2])
  func eachTestCaseGetsATrackerOfItsOwn(argument: Int) {
    #expect(LeakTracker.current?.trackedCount == 0)
    LeakTracker.current?.track(Released(), "case \(argument)")
  }

  @Test func thereIsNoTrackerWithoutTheTrait() {
    #expect(LeakTracker.current == nil)
  }

  @Test func theTraitRecordsTheSurvivorsWhenTheTestEnds() async throws {
    let test = try #require(Test.current)
    let kept = Kept()
    try await withKnownIssue(.deliberateLeak) {
      try await LeakCheckTrait.checksLeaks.provideScope(for: test, testCase: Test.Case.current) {
        LeakTracker.current?.track(kept, "kept")
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix(#"LEAK: Kept "kept" tracked at"#) }
    }
  }
}
