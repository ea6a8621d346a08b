import AffixTesting
import Testing

private final class Parent {
  var child: Child?
}

private final class Child {
  let parent: Parent

  init(parent: Parent) {
    self.parent = parent
  }
}

private final class Observer {
  var onChange: (() -> Void)?
  var count = 0

  func startObserving() {
    onChange = { self.count += 1 }
  }
}

private final class Plain {
  var numbers = [1, 2, 3]
  var name = "plain"
}

private final class Holder {
  var held: Plain?
  var me: Holder?
}

@Suite struct LeakTrackerTests {
  @Test func aCycleThroughStoredPropertiesIsReportedWithItsTypeAndPath() throws {
    weak var leaked: Parent?
    let (_, report) = checkForLeaks { tracker in
      let parent = Parent()
      parent.child = Child(parent: parent)
      tracker.track(parent, "root")
      leaked = parent
    }
    defer { leaked?.child = nil }

    #expect(report.survivors.count == 1)
    let survivor = try #require(report.survivors.first)
    #expect(survivor.typeName == "Parent")
    #expect(survivor.label == "root")
    #expect(survivor.cycle?.propertyNames == ["Parent.child", "Child.parent"])
    #expect(survivor.cycle?.description == "Parent.child -> Child.parent -> Parent")
  }

  @Test func aCycleThroughAClosureIsReportedWithItsTypeAndTheClosureProperty() throws {
    weak var leaked: Observer?
    let (_, report) = checkForLeaks { tracker in
      let observer = Observer()
      observer.startObserving()
      tracker.track(observer)
      leaked = observer
    }
    defer { leaked?.onChange = nil }

    let survivor = try #require(report.survivors.first)
    #expect(survivor.typeName == "Observer")
    #expect(survivor.cycle == nil)
    #expect(survivor.closureProperties == ["onChange"])
    #expect(survivor.description.contains("closure captures are not visible"))
    #expect(survivor.description.contains("Observer.onChange"))
  }

  @Test func aReleasedObjectIsNotReported() {
    let (_, report) = checkForLeaks { tracker in
      let plain = Plain()
      tracker.track(plain)
      let parent = Parent()
      parent.child = Child(parent: parent)
      parent.child = nil
      tracker.track(parent)
    }
    #expect(report.isClean)
    #expect(report.trackedCount == 2)
    #expect(report.description == "No leaks: all 2 tracked objects were released.")
  }

  @Test func anObjectKeptAliveOnPurposeIsReportedWithoutACycle() {
    let kept = Plain()
    let (_, report) = checkForLeaks { tracker in
      tracker.track(kept)
    }
    #expect(report.survivors.map(\.typeName) == ["Plain"])
    #expect(report.survivors.first?.cycle == nil)
    #expect(report.survivors.first?.description.contains("no retain path") == true)
  }

  @Test func anObjectHeldByAnotherSurvivorNamesThePathFromIt() {
    weak var leaked: Holder?
    let (_, report) = checkForLeaks { tracker in
      let holder = Holder()
      let plain = Plain()
      holder.me = holder
      holder.held = plain
      tracker.track(holder)
      tracker.track(plain)
      leaked = holder
    }
    defer { leaked?.me = nil }

    #expect(report.survivors.map(\.typeName) == ["Holder", "Plain"])
    #expect(report.survivors.first?.cycle?.description == "Holder.me -> Holder")
    #expect(report.survivors.last?.retainedBy?.description == "Holder.held -> Plain")
  }

  @Test func eachSurvivorIsOneLineStartingWithLeak() {
    weak var first: Parent?
    weak var second: Observer?
    let (_, report) = checkForLeaks { tracker in
      let parent = Parent()
      parent.child = Child(parent: parent)
      let observer = Observer()
      observer.startObserving()
      tracker.track(parent)
      tracker.track(observer)
      first = parent
      second = observer
    }
    defer {
      first?.child = nil
      second?.onChange = nil
    }

    let lines = report.description.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.hasPrefix("LEAK: ") })
    #expect(lines.first?.contains("tracked at AffixTestingTests/LeakTrackerTests.swift:") == true)
  }

  @Test func trackingTheSameObjectTwiceReportsItOnce() {
    let kept = Plain()
    let (_, report) = checkForLeaks { tracker in
      tracker.track(kept)
      tracker.track(kept, "again")
    }
    #expect(report.trackedCount == 2)
    #expect(report.survivors.count == 1)
  }

  @Test func expectNoLeaksRecordsOneIssueNamingEverySurvivor() {
    weak var leaked: Parent?
    withKnownIssue(.deliberateLeak) {
      expectNoLeaks { tracker in
        let parent = Parent()
        let child = Child(parent: parent)
        parent.child = child
        tracker.track(parent)
        tracker.track(child)
        leaked = parent
      }
    } matching: { issue in
      let message = issue.comments.map(\.rawValue).joined(separator: "\n")
      return message.hasPrefix("LEAK: Parent") && message.contains("\nLEAK: Child")
    }
    leaked?.child = nil
  }

  @Test func expectNoLeaksRecordsNothingWhenEverythingIsReleased() {
    let value = expectNoLeaks { tracker in
      let plain = Plain()
      tracker.track(plain)
      return plain.numbers.count
    }
    #expect(value == 3)
  }

  @Test func expectNoLeaksChecksAfterAnAsynchronousBody() async {
    weak var leaked: Observer?
    await withKnownIssue(.deliberateLeak) {
      await expectNoLeaks { tracker in
        let observer = Observer()
        observer.startObserving()
        await Task.yield()
        tracker.track(observer)
        leaked = observer
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.hasPrefix("LEAK: Observer") }
    }
    leaked?.onChange = nil
  }
}

extension Comment {
  /// What `swift test` prints under a deliberate leak's `LEAK:` lines (Swift Testing puts a
  /// known issue's comment after the issue's own), so that a reader of the output knows them
  /// for the expected report of a test that leaks on purpose.
  static let deliberateLeak: Comment =
    "Expected: the LEAK: lines above are a deliberate leak, which this test checks is reported"
}
