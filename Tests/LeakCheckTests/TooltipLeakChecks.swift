import Affix
import AffixScheduling
import AffixTesting
import AffixTooltip
import Testing

private final class Button: Tooltipped {
  let scheduler: VirtualClock
  var isTooltipShown = false

  init(scheduler: VirtualClock) {
    self.scheduler = scheduler
  }

  var tooltipClock: any SchedulingClock { scheduler }
}

private final class OwningButton: Tooltipped, AssociationOwner {
  let associationStorage = AssociationStorage()
  let scheduler: VirtualClock
  var isTooltipShown = false

  init(scheduler: VirtualClock) {
    self.scheduler = scheduler
  }

  var tooltipClock: any SchedulingClock { scheduler }
}

private final class Label {
  var tooltipVisible = false
}

@MainActor @Suite(.serialized) struct TooltipLeakChecks {
  @Test(.tags(.leakCheck))
  func anOwnersDeathReleasesItsTooltipWithAShowPending() throws {
    let scheduler = VirtualClock()
    try expectNoLeaks { tracker in
      do {
        let button = OwningButton(scheduler: scheduler)
        button.pointerEntered()
        tracker.track(button, "host")
        tracker.track(try #require(button.tooltip), "controller")
      }
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func aSharedTableHostReleasesItsShownTooltipAtTheSweep() throws {
    let scheduler = VirtualClock()
    try expectNoLeaks { tracker in
      do {
        let button = Button(scheduler: scheduler)
        button.pointerEntered()
        scheduler.advance(by: .seconds(1))
        button.pointerExited()
        tracker.track(button, "host")
        tracker.track(try #require(button.tooltip), "controller")
      }
      AssociationTable.sweep()
      #expect(scheduler.pendingCount == 0)
    }
  }

  @Test(.tags(.leakCheck))
  func aTooltipAttachedAtRunTimeDiesWithItsHost() {
    let scheduler = VirtualClock()
    expectNoLeaks { tracker in
      do {
        let label = Label()
        let tooltip = TooltipController.attach(to: label, clock: scheduler) {
          $0.tooltipVisible = $1
        }
        tooltip.pointerEntered()
        tracker.track(label, "host")
        tracker.track(tooltip, "controller")
      }
      AssociationTable.sweep()
      #expect(scheduler.pendingCount == 0)
    }
  }
}
