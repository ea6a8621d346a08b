import Affix
import AffixTesting
import Testing

private final class Host: Sendable {}

private final class Attachment: Sendable {}

/// A capability that holds its host strongly: the cycle the path finder must show.
private final class Clinging: Capability {
  let host: Host

  init(host: Host) {
    self.host = host
  }

  func didEnd(_ ending: CapabilityEnding) {}
}

private final class Polite: Capability {
  func didEnd(_ ending: CapabilityEnding) {}
}

private enum AttachmentKey: AssociatedKey { typealias Value = Attachment? }

/// Refers back to its host `unowned`: no cycle, yet the host never finishes going.
private final class UnownedBackReference: Sendable {
  unowned let host: Host

  init(host: Host) {
    self.host = host
  }
}

private enum BackReferenceKey: AssociatedKey { typealias Value = UnownedBackReference? }

@Suite struct LeakTrackerAssociationsTests {
  @Test func aHostHeldUnownedByItsOwnValueIsReportedWithThatReason() {
    let (_, report) = checkForLeaks { tracker in
      let host = Host()
      Associations(of: host)[BackReferenceKey.self] = UnownedBackReference(host: host)
      tracker.track(host, "document")
    }
    if HostKind.everyHostIsWeak {
      // On the weak path nothing pins the host: it is swept, and its value with it.
      #expect(report.isClean)
    } else {
      #expect(report.survivors.map(\.isHeldUnowned) == [true])
      #expect(
        report.description.contains(
          "LEAK: Host \"document\" tracked at AffixTestingTests/LeakTracker+AssociationsTests.swift"
        ))
      #expect(report.description.contains("is held unowned"))
    }
  }

  @Test func aValueAttachedToADeadHostIsReleasedByTheSweepBeforeTheReport() {
    let (_, report) = checkForLeaks { tracker in
      let host = Host()
      let value = Attachment()
      Associations(of: host)[AttachmentKey.self] = value
      tracker.track(value)
    }
    #expect(report.isClean)
  }

  @Test func trackingAttachmentsTracksTheHostAndItsCapabilities() {
    let kept = Polite()
    let (_, report) = checkForLeaks { tracker in
      let host = Host()
      Associations(of: host).attach(kept)
      tracker.trackAttachments(of: host, "button")
      #expect(tracker.trackedCount == 2)
    }
    #expect(report.survivors.map(\.label) == [#"capability of Host "button""#])
  }

  @Test func aCapabilityHoldingItsHostStronglyShowsAsACycle() {
    weak var leaked: Host?
    let (_, report) = checkForLeaks { tracker in
      let host = Host()
      Associations(of: host).attach(Clinging(host: host))
      tracker.track(host)
      leaked = host
    }
    if let leaked {
      Associations(of: leaked).removeCapability(Clinging.self)
    }

    #expect(
      report.survivors.first?.cycle?.description
        == "Host -[Clinging]-> Clinging.host -> Host")
  }
}
