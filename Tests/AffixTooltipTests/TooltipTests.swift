import Affix
import AffixScheduling
import AffixTestSupport
import AffixTooltip
import Dispatch
import Observation
import Synchronization
import Testing

/// A host on a virtual clock that records every write of its tooltip's visibility.
final class Button: Tooltipped {
  let scheduler: VirtualClock
  var writes: [Bool] = []
  var isTooltipShown = false {
    didSet { writes.append(isTooltipShown) }
  }

  init(scheduler: VirtualClock = VirtualClock()) {
    self.scheduler = scheduler
  }

  var tooltipClock: any SchedulingClock { scheduler }
}

/// A main-actor host, written on the main actor whichever thread its clock runs on.
@MainActor final class MainActorButton {
  let scheduler = VirtualClock()
  var writes: [Bool] = []
  var isTooltipShown = false {
    didSet {
      MainActor.assertIsolated("the tooltip was written off the main actor")
      writes.append(isTooltipShown)
    }
  }
}

extension MainActorButton: @MainActor Tooltipped {
  var tooltipClock: any SchedulingClock { scheduler }
}

/// A type that does not conform, as one from another module.
@MainActor final class Label {
  var tooltipVisible = false
}

@MainActor @Suite struct MainActorTooltipTests {
  @Test func settlingIncludesTheWriteQueuedOnTheHostsActor() async {
    let button = MainActorButton()
    button.pointerEntered()
    let scheduler = button.scheduler
    // The clock runs on another thread while the main actor is busy here: the show is queued.
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    #expect(button.writes.isEmpty)
    await button.tooltipSettled()
    #expect(button.writes == [true])
  }
}

@MainActor @Suite struct TooltipTests {
  @Test func itShowsOnceThePointerHasRestedForTheShowDelay() {
    let button = Button()
    button.pointerEntered()
    button.scheduler.advance(by: .milliseconds(499))
    #expect(!button.isTooltipShown)
    button.scheduler.advance(by: .milliseconds(1))
    #expect(button.isTooltipShown)
    #expect(button.tooltip?.isPending == false)
  }

  @Test func aPointerPassingOverShowsNothing() {
    let button = Button()
    button.pointerEntered()
    button.scheduler.advance(by: .milliseconds(300))
    button.pointerExited()
    button.scheduler.advance(by: .seconds(2))
    #expect(button.writes.isEmpty)
    #expect(button.scheduler.pendingCount == 0)
  }

  @Test func itHidesAfterTheGraceTimeAndAReturnWithinItKeepsItShown() {
    let button = Button()
    button.pointerEntered()
    button.scheduler.advance(by: .seconds(1))
    button.pointerExited()
    button.scheduler.advance(by: .milliseconds(50))
    button.pointerEntered()
    button.scheduler.advance(by: .seconds(1))
    #expect(button.writes == [true])
    button.pointerExited()
    button.scheduler.advance(by: .milliseconds(100))
    #expect(button.writes == [true, false])
  }

  @Test func customTimingIsRead() {
    final class SlowButton: Tooltipped {
      let scheduler = VirtualClock()
      var isTooltipShown = false
      var tooltipClock: any SchedulingClock { scheduler }
      var tooltipTiming: TooltipTiming { TooltipTiming(showDelay: .seconds(2)) }
    }
    let button = SlowButton()
    button.pointerEntered()
    button.scheduler.advance(by: .seconds(1))
    #expect(!button.isTooltipShown)
    button.scheduler.advance(by: .seconds(1))
    #expect(button.isTooltipShown)
    #expect(TooltipTiming(showDelay: .seconds(-1)).showDelay == .zero)
  }

  @Test func unbalancedPointerReportsNameTheCallersLine() {
    let button = Button()
    let line = #line + 2
    let reports = DiagnosticLog.capture {
      button.pointerExited()
      button.pointerEntered()
      button.pointerEntered()
    }.all
    #expect(reports.count == 2)
    #expect(reports.allSatisfy { $0.subsystem == "tooltip" && $0.severity == .warning })
    #expect(reports.first?.line == line)
    #expect(reports.first?.fileID == "AffixTooltipTests/TooltipTests.swift")
  }

  @Test func settledReturnsOnceThePendingShowHasRun() async {
    let button = Button()
    button.pointerEntered()
    let controller = button.tooltip
    let waiter = Task { await controller?.settled() }
    button.scheduler.advance(by: .seconds(1))
    await waiter.value
    #expect(button.isTooltipShown)
  }

  @Test func anObjectThatDoesNotConformGetsATooltipAtRunTime() {
    let scheduler = VirtualClock()
    let label = Label()
    let tooltip = TooltipController.attach(to: label, clock: scheduler) { label, shown in
      label.tooltipVisible = shown
    }
    tooltip.pointerEntered()
    scheduler.advance(by: .seconds(1))
    #expect(label.tooltipVisible)
    #expect(Associations(of: label).capability(TooltipController.self) === tooltip)
    tooltip.dismiss()
    #expect(!label.tooltipVisible)
  }

  @Test func detachingHidesAShownTooltipAndCancelsWhatIsPending() {
    let button = Button()
    button.pointerEntered()
    button.scheduler.advance(by: .seconds(1))
    button.pointerExited()
    Associations(of: button).removeCapability(TooltipController.self)
    #expect(button.writes == [true, false])
    #expect(button.scheduler.pendingCount == 0)
  }

  @Test func theDeathOfItsHostCancelsAPendingShowByTheNextSweep() {
    let scheduler = VirtualClock()
    weak var controller: TooltipController?
    do {
      let button = Button(scheduler: scheduler)
      button.pointerEntered()
      controller = button.tooltip
    }
    AssociationTable.sweep()
    #expect(controller == nil)
    #expect(scheduler.pendingCount == 0)
  }
}

/// `TooltipController.isShown` takes part in Swift Observation.
@MainActor @Suite struct TooltipObservationTests {
  @Test func aTrackedReadIsToldWhenTheTooltipShowsAndWhenItHides() throws {
    let button = Button()
    button.pointerEntered()
    let tooltip = try #require(button.tooltip)
    let shows = TrackedRead { tooltip.isShown }
    button.scheduler.advance(by: .milliseconds(499))
    #expect(shows.timesTold == 0, "a pending show is no change of isShown")
    button.scheduler.advance(by: .milliseconds(1))
    #expect(shows.timesTold == 1)
    let hides = TrackedRead { tooltip.isShown }
    button.pointerExited()
    button.scheduler.advance(by: .seconds(1))
    #expect(hides.timesTold == 1)
  }

  @Test func onChangeRunsBeforeTheChange() throws {
    let button = Button()
    button.pointerEntered()
    let tooltip = try #require(button.tooltip)
    let seen = Mutex<Bool?>(nil)
    withObservationTracking {
      _ = tooltip.isShown
    } onChange: {
      seen.withLock { $0 = tooltip.isShown }
    }
    button.scheduler.advance(by: .seconds(1))
    #expect(seen.withLock { $0 } == false)
    #expect(tooltip.isShown)
  }

  @Test func aDismissOfAHiddenTooltipIsNoChange() throws {
    let button = Button()
    button.pointerEntered()
    let tooltip = try #require(button.tooltip)
    let changes = TrackedRead { tooltip.isShown }
    tooltip.dismiss()
    #expect(changes.timesTold == 0)
  }

  @Test func trackingKeepsNeitherTheHostNorItsController() {
    weak var weakButton: Button?
    weak var weakTooltip: TooltipController?
    var changes: TrackedRead?
    do {
      let button = Button()
      button.pointerEntered()
      weakButton = button
      weakTooltip = button.tooltip
      changes = button.tooltip.map { tooltip in TrackedRead { tooltip.isShown } }
    }
    #expect(isDeallocated { weakButton })
    // The controller goes with its host's values, which a sweep releases before it returns.
    AssociationTable.sweep()
    #expect(isDeallocated { weakTooltip })
    #expect(changes?.timesTold == 0)
  }
}
