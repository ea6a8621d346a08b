import Affix
import AffixTestSupport
import AffixTesting
import Observation
import Synchronization
import Testing

// The core's ownership facts, in the manner of UIKitPlus's ownership tests: what a host's
// death releases, what never keeps a host alive, and what cleans up independently.

private final class PlainHost: Sendable {}

private final class OwningHost: AssociationOwner, Sendable {
  let associationStorage = AssociationStorage()
}

/// A value class that records nothing: only its lifetime matters.
private final class Payload: Sendable {}

/// A value that points back at its host.
private final class BackPointer: Sendable {
  let host: any AnyObject & Sendable

  init(host: any AnyObject & Sendable) {
    self.host = host
  }
}

/// A value that points back at its host without keeping it.
private final class WeakBackPointer: Sendable {
  let host: AnyWeakReference

  init(host: AnyObject) {
    self.host = AnyWeakReference(host)
  }
}

private final class Spinner: Capability {
  let host: AnyWeakReference
  let detached = Atomic(false)

  init(host: AnyObject) {
    self.host = AnyWeakReference(host)
  }

  func didEnd(_ ending: CapabilityEnding) {
    detached.store(true, ordering: .relaxed)
  }
}

private enum PayloadKey: AssociatedKey { typealias Value = Payload? }
private enum WeakPayloadKey: AssociatedKey {
  typealias Value = Payload?
  static let policy = AssociationPolicy.weak
}
private enum CountKey: AssociatedKey { typealias Value = Int? }
private enum BackPointerKey: AssociatedKey { typealias Value = BackPointer? }
private enum WeakBackPointerKey: AssociatedKey { typealias Value = WeakBackPointer? }
private enum TrackedPayloadKey: ObservableKey { typealias Value = Payload? }

/// Where a host keeps its values: in the shared table (released at the sweep after it dies) or
/// in its own storage (released at its deinit).
enum HostKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sharedTable
  case owner

  var testDescription: String { rawValue }

  fileprivate func make() -> any AnyObject & Sendable {
    switch self {
    case .sharedTable: PlainHost()
    case .owner: OwningHost()
    }
  }
}

@Suite(.tags(.leakCheck))
struct CoreLeakChecks {
  @Test(arguments: HostKind.allCases)
  func releasingAHostReleasesItsValuesAndCapabilities(kind: HostKind) {
    expectNoLeaks { tracker in
      let host = kind.make()
      let associations = Associations(of: host)
      let payload = Payload()
      associations[PayloadKey.self] = payload
      associations[CountKey.self] = 3
      associations.attach(Spinner(host: host))
      tracker.trackAttachments(of: host)
      tracker.track(payload, "strong value")
    }
  }

  @Test(arguments: HostKind.allCases)
  func releasingAHostEndsItsObservations(kind: HostKind) {
    let token = expectNoLeaks { tracker in
      let host = kind.make()
      let observed = Payload()
      let token = Associations(of: host).observe(
        CountKey.self,
        nonisolated: { [observed] _ in
          _ = observed
        })
      tracker.track(host)
      tracker.track(observed, "captured by the observer")
      return token
    }
    // The token outlived the host; cancelling it now is harmless.
    token.cancel()
    #expect(token.isCancelled)
  }

  @Test(arguments: HostKind.allCases)
  func anObservationNeverKeepsItsHostAlive(kind: HostKind) {
    let calls = Counter()
    let token = expectNoLeaks { tracker in
      let host = kind.make()
      let weakHost = AnyWeakReference(host)
      let token = Associations(of: host).observe(
        CountKey.self,
        nonisolated: { _ in
          if weakHost.object != nil { calls.increment() }
        })
      Associations(of: host)[CountKey.self] = 1
      tracker.track(host)
      return token
    }
    let callCount = calls.value
    #expect(callCount == 1)
    #expect(!token.isCancelled)
  }

  /// Swift Observation's tracking of an observable key holds neither the host nor its value;
  /// the host's death is the change the tracking is told of.
  @Test(arguments: HostKind.allCases)
  func aTrackingOfAnObservableKeyKeepsNeitherItsHostNorItsValue(kind: HostKind) {
    let changes = Counter()
    expectNoLeaks { tracker in
      let host = kind.make()
      let payload = Payload()
      Associations(of: host)[TrackedPayloadKey.self] = payload
      withObservationTracking {
        _ = Associations(of: host)[TrackedPayloadKey.self]
      } onChange: {
        changes.increment()
      }
      tracker.trackAttachments(of: host)
      tracker.track(payload, "tracked value")
    }
    #expect(changes.value == 1)
  }

  @Test(arguments: HostKind.allCases)
  func aWeakValueIsNeverKeptByItsHost(kind: HostKind) {
    let host = kind.make()
    expectNoLeaks { tracker in
      let payload = Payload()
      Associations(of: host)[WeakPayloadKey.self] = payload
      tracker.track(payload, "weakly attached")
    }
    #expect(Associations(of: host)[WeakPayloadKey.self] == nil)
  }

  /// A value that holds its host strongly keeps it alive: the storage holds the value for as
  /// long as the host lives, so neither can go (for an owner, host -> storage -> value -> host
  /// is a plain cycle). The leak check reports both, each with the cycle through the
  /// association; removing the value frees them. Values that need their host hold it weakly,
  /// and then everything goes.
  @Test(arguments: HostKind.allCases)
  func aValueHoldingItsHostStronglyKeepsItAliveUntilRemoved(kind: HostKind) {
    weak var leakedHost: AnyObject?
    let (_, report) = checkForLeaks { tracker in
      let host = kind.make()
      let value = BackPointer(host: host)
      Associations(of: host)[BackPointerKey.self] = value
      tracker.track(host, "host")
      tracker.track(value, "value")
      leakedHost = host
    }
    #expect(report.survivors.map(\.label) == ["host", "value"])
    let hostType = kind == .owner ? "OwningHost" : "PlainHost"
    #expect(
      report.survivors.map { $0.cycle?.description } == [
        "\(hostType) -[BackPointerKey]-> BackPointer.host -> \(hostType)",
        "BackPointer.host -> \(hostType) -[BackPointerKey]-> BackPointer",
      ])

    let removed = leakedHost.map {
      Associations(of: $0).removeValue(for: BackPointerKey.self) != nil
    }
    #expect(removed == true)
    // The removed value is released after a grace period, by the next sweep at the latest.
    AssociationTable.sweep()
    #expect(leakedHost == nil)
  }

  @Test(arguments: HostKind.allCases)
  func aValueHoldingItsHostWeaklyGoesWithIt(kind: HostKind) {
    expectNoLeaks { tracker in
      let host = kind.make()
      let value = WeakBackPointer(host: host)
      Associations(of: host)[WeakBackPointerKey.self] = value
      tracker.track(host)
      tracker.track(value)
    }
  }

  @Test func independentHostsCleanUpIndependently() {
    let survivor = PlainHost()
    let survivorValue = Payload()
    Associations(of: survivor)[PayloadKey.self] = survivorValue
    expectNoLeaks { tracker in
      for index in 0..<100 {
        let host = PlainHost()
        let payload = Payload()
        Associations(of: host)[PayloadKey.self] = payload
        Associations(of: host)[CountKey.self] = index
        tracker.track(host)
        tracker.track(payload)
      }
    }
    #expect(Associations(of: survivor)[PayloadKey.self] === survivorValue)
  }

  @Test func survivorsAmongManyHostsKeepTheirValues() {
    var kept: [Int: PlainHost] = [:]
    expectNoLeaks { tracker in
      for index in 0..<100 {
        let host = PlainHost()
        Associations(of: host)[CountKey.self] = index
        if [0, 21, 99].contains(index) {
          kept[index] = host
        } else {
          tracker.track(host)
        }
      }
    }
    for (index, host) in kept {
      #expect(Associations(of: host)[CountKey.self] == index)
    }
  }

  @Test func shortLivedHostsLeaveNothingBehindAfterASweep() {
    expectNoLeaks { tracker in
      for _ in 0..<1_000 {
        let host = PlainHost()
        let payload = Payload()
        Associations(of: host)[PayloadKey.self] = payload
        _ = Associations(of: host).value(for: CountKey.self) { 1 }
        tracker.track(payload)
      }
    }
  }

  @Test func anOwnersValuesDieAtItsDeinitWithoutASweep() {
    weak var weakPayload: Payload?
    weak var weakSpinner: Spinner?
    do {
      let host = OwningHost()
      let payload = Payload()
      let spinner = Spinner(host: host)
      Associations(of: host)[PayloadKey.self] = payload
      Associations(of: host).attach(spinner)
      weakPayload = payload
      weakSpinner = spinner
    }
    // No sweep here: an owner's storage goes with it.
    #expect(isDeallocated { weakPayload })
    #expect(isDeallocated { weakSpinner })
  }

  @Test(arguments: HostKind.allCases)
  func replacingAValueReleasesTheOldOne(kind: HostKind) {
    let host = kind.make()
    expectNoLeaks { tracker in
      let first = Payload()
      Associations(of: host)[PayloadKey.self] = first
      Associations(of: host)[PayloadKey.self] = Payload()
      tracker.track(first, "replaced value")
    }
    expectNoLeaks { tracker in
      let removed = Associations(of: host).removeValue(for: PayloadKey.self)
      if let removed {
        tracker.track(removed, "removed value")
      }
      #expect(removed != nil)
    }
  }

  @Test(arguments: HostKind.allCases)
  func detachingACapabilityReleasesIt(kind: HostKind) {
    let host = kind.make()
    expectNoLeaks { tracker in
      let spinner = Associations(of: host).attach(Spinner(host: host))
      tracker.track(spinner)
      Associations(of: host).removeCapability(Spinner.self)
      let detached = spinner.detached.load(ordering: .relaxed)
      #expect(detached)
    }
  }

  @Test func aCancellationTokenReleasesItsWorkWhenDropped() {
    expectNoLeaks { tracker in
      let work = Payload()
      let token = CancellationToken { [work] in _ = work }
      tracker.track(work)
      tracker.track(token)
    }
  }
}
