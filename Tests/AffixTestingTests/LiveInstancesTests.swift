import Affix
import AffixTestSupport
import AffixTesting
import Testing

// Counts are process-wide, so every test counts types of its own.

private final class Screen {
  let lifetime = LifetimeToken(for: Screen.self)
}

private final class Singleton {
  let lifetime = LifetimeToken(for: Singleton.self, maximum: 1)
}

private final class Negative {
  let lifetime = LifetimeToken(for: Negative.self, maximum: -1)
}

private final class ForeignView {}

private final class ForeignCard: AssociationOwner {
  let associationStorage = AssociationStorage()
}

/// A type counted only through `trackLifetime(of:)`, whose inspector may point back at it.
private final class InspectedWindow: Sendable {}

private final class WindowInspector: Sendable {
  let window: InspectedWindow

  init(window: InspectedWindow) {
    self.window = window
  }
}

private enum WindowInspectorKey: AssociatedKey { typealias Value = WindowInspector? }

@Suite struct LiveInstancesTests {
  @Test func goingOverTheMaximumNamesTheCycleThatKeepsAnInstanceAlive() {
    let kept = InspectedWindow()
    Associations(of: kept)[WindowInspectorKey.self] = WindowInspector(window: kept)
    defer { Associations(of: kept).removeValue(for: WindowInspectorKey.self) }
    trackLifetime(of: kept, maximum: 1)
    let other = InspectedWindow()

    let diagnostics = DiagnosticLog.capture { trackLifetime(of: other) }.all

    let cycle = "InspectedWindow -[WindowInspectorKey]-> WindowInspector.window -> InspectedWindow"
    #expect(
      diagnostics.map(\.message) == [
        "InspectedWindow has 2 live instances, more than 1; retain cycle: \(cycle)"
      ])
    // The optimizer would otherwise release `other` after its last use above.
    withExtendedLifetime(other) {
      #expect(
        LiveInstances.instances(of: InspectedWindow.self).map(\.description) == [
          "InspectedWindow: retain cycle: \(cycle)",
          "InspectedWindow: no retain cycle through stored properties or associations",
        ])
    }
  }

  @Test func theCountFollowsTheInstancesThatHoldATokenAndRemembersThePeak() {
    do {
      let screens = [Screen(), Screen(), Screen()]
      withExtendedLifetime(screens) {
        #expect(LiveInstances.count(of: Screen.self) == 3)
      }
    }
    #expect(LiveInstances.count(of: Screen.self) == 0)
    let count = LiveInstances.counts.first { $0.typeName == "Screen" }
    #expect(count?.peak == 3)
    #expect(count?.isOverMaximum == false)
  }

  @Test func goingOverTheMaximumReportsADiagnosticNamingTheType() {
    var pair: [Singleton] = []
    let diagnostics = DiagnosticLog.capture {
      pair = [Singleton(), Singleton()]
    }.all
    #expect(diagnostics.map(\.subsystem) == ["lifetime"])
    #expect(diagnostics.first?.message.contains("Singleton has 2 live instances") == true)
    #expect(LiveInstances.overMaximum.map(\.typeName).contains("Singleton"))
    pair.removeAll()
    #expect(!LiveInstances.overMaximum.map(\.typeName).contains("Singleton"))
  }

  @Test func aNegativeMaximumIsReportedAndIgnored() {
    var instance: Negative?
    let diagnostics = DiagnosticLog.capture {
      instance = Negative()
    }.all
    #expect(diagnostics.first?.message.contains("negative maximum") == true)
    #expect(LiveInstances.count(of: Negative.self) == 1)
    #expect(LiveInstances.counts.first { $0.typeName == "Negative" }?.maximum == nil)
    instance = nil
    _ = instance
  }

  @Test func trackingLifetimeCountsAnOwnerUntilItsDeinitAndOnlyOnce() {
    do {
      let card = ForeignCard()
      trackLifetime(of: card)
      trackLifetime(of: card)
      #expect(LiveInstances.count(of: ForeignCard.self) == 1)
    }
    #expect(LiveInstances.count(of: ForeignCard.self) == 0)
  }

  @Test func trackingLifetimeCountsAnyObjectUntilTheSweepAfterItDies() {
    do {
      let views = [ForeignView(), ForeignView()]
      for view in views {
        trackLifetime(of: view, maximum: 10)
      }
      #expect(LiveInstances.count(of: ForeignView.self) == 2)
    }
    AssociationTable.sweep()
    #expect(LiveInstances.count(of: ForeignView.self) == 0)
  }
}
