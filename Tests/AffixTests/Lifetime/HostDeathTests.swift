import Affix
import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Set while a test reads, so that a value released on the reading task betrays a sweep on
/// the read path; sweeps by tests running in parallel happen on other tasks.
enum ReadPhase {
  @TaskLocal static var isReading = false
}

@Suite struct HostDeathTests {
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
  let value = TrackedValue.self
  /// Stored inline (an `Int?` would be boxed), for the read path that takes no reference.
  enum Number: AssociatedKey { static let defaultValue = Int.min }
  let number = Number.self

  @Test func theStorageNeverRetainsItsHost() {
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[number] = 1
      Associations(of: host)[value] = Tracked()
      enum Made: AssociatedKey { typealias Value = String? }
      _ = Associations(of: host).value(for: Made.self) { "made" }
    }
    #expect(isDeallocated { weakHost })
  }

  @Test func aNewObjectAtADeadHostsAddressSeesNoneOfItsValues() {
    let lifetimes = Lifetimes()
    var deadAddresses = Set<ObjectIdentifier>()
    do {
      var hosts = (0..<1_000).map { _ in Host() }
      for (index, host) in hosts.enumerated() {
        Associations(of: host)[number] = index + 1
        Associations(of: host)[value] = lifetimes.make(index)
        deadAddresses.insert(ObjectIdentifier(host))
      }
      hosts.removeAll()
    }
    #expect(sweepUntil { lifetimes.alive == 0 })
    let newHosts = (0..<2_000).map { _ in Host() }
    var reused = 0
    for host in newHosts {
      if deadAddresses.contains(ObjectIdentifier(host)) { reused += 1 }
      #expect(Associations(of: host)[number] == Number.defaultValue)
      #expect(Associations(of: host)[value] == nil)
      #expect(Associations(of: host).keys.isEmpty)
    }
    // Freed addresses are normally handed out again at once; if the allocator declines, the
    // check above still holds but says less.
    withKnownIssue("the allocator reused none of the freed addresses", isIntermittent: true) {
      #expect(reused > 0)
    }
  }

  @Test func hostsDyingOneByOneNeverLeakValuesToTheirSuccessors() {
    var seen = Set<ObjectIdentifier>()
    var reused = 0
    for round in 1...5_000 {
      let host = Host()
      if !seen.insert(ObjectIdentifier(host)).inserted { reused += 1 }
      #expect(Associations(of: host)[number] == Number.defaultValue, "round \(round)")
      Associations(of: host)[number] = round
      if round.isMultiple(of: 100) { AssociationTable.sweep() }
    }
    withKnownIssue("the allocator reused none of the freed addresses", isIntermittent: true) {
      #expect(reused > 0)
    }
  }

  @Test func readsNeverSweep() {
    let releasedWhileReading = Flag()
    let released = Flag()
    let survivors = (0..<64).map { _ in Host() }
    for (index, host) in survivors.enumerated() { Associations(of: host)[number] = index }
    do {
      let host = Host()
      Associations(of: host)[value] = Tracked {
        released.set()
        if ReadPhase.isReading { releasedWhileReading.set() }
      }
    }
    ReadPhase.$isReading.withValue(true) {
      for _ in 0..<200 {
        for (index, host) in survivors.enumerated() {
          #expect(Associations(of: host)[number] == index)
          #expect(Associations(of: host)[value] == nil)
          _ = Associations(of: host).keys
          _ = Associations(of: host).capabilities
        }
        // Hosts without storage are reads too, on addresses that may sit next to the dead one.
        _ = Associations(of: Host())[number]
        _ = Associations(of: Host()).removeValue(for: number)
      }
      _ = AssociationTable.statistics
    }
    #expect(!releasedWhileReading.isSet)
    #expect(sweepUntil { released.isSet })
  }

  @Test func sweepingKeepsSurvivorsValues() {
    let lifetimes = Lifetimes()
    let kept: Set = [0, 21, 99]
    var survivors: [Int: Host] = [:]
    do {
      let hosts = (0..<100).map { _ in Host() }
      for (index, host) in hosts.enumerated() {
        Associations(of: host)[number] = index
        Associations(of: host)[value] = lifetimes.make(index)
        if kept.contains(index) { survivors[index] = host }
      }
    }
    #expect(sweepUntil { lifetimes.alive == kept.count })
    for (index, host) in survivors {
      #expect(Associations(of: host)[number] == index)
      #expect(Associations(of: host)[value]?.id == index)
    }
  }

  @Test(arguments: [1, 100, 10_000])
  func sweepingReleasesEveryValueOfDeadHosts(hostCount: Int) {
    let lifetimes = Lifetimes()
    do {
      let hosts = (0..<hostCount).map { _ in Host() }
      for (index, host) in hosts.enumerated() {
        Associations(of: host)[value] = lifetimes.make(index)
        Associations(of: host)[number] = index
      }
      // The hosts must outlive the count: an optimized build may end their lifetime at
      // their last use.
      withExtendedLifetime(hosts) {
        let statistics = AssociationTable.statistics
        #expect(statistics.liveHosts >= hostCount)
        #expect(statistics.entries >= 2 * hostCount)
        #expect(lifetimes.alive == hostCount)
      }
    }
    #expect(sweepUntil { lifetimes.alive == 0 })
  }

  @Test func insertingNewHostsEventuallyReleasesDeadHostsValues() {
    let lifetimes = Lifetimes()
    let deadCount = 200
    let value = self.value
    let number = self.number
    do {
      let hosts = (0..<deadCount).map { _ in Host() }
      for (index, host) in hosts.enumerated() {
        // Released by a sweep on the insert path, the value writes to a new host itself.
        Associations(of: host)[value] = lifetimes.make(index) {
          Associations(of: Host())[number] = index
        }
      }
    }
    #expect(lifetimes.made == deadCount)
    // Each new host sweeps a few slots, so a bounded number of them covers the whole table.
    // The table never shrinks and other tests grow it; 2^16 slots is more than they need.
    let capacity = 1 << 16
    var inserted = 0
    var batch: [Host] = []
    while lifetimes.alive > 0 && inserted < 4 * capacity {
      let host = Host()
      Associations(of: host)[number] = inserted
      batch.append(host)
      if batch.count == 256 { batch.removeAll() }
      inserted += 1
    }
    // The inserts took the dead hosts off the table; a Dispatch thread releases their values,
    // which other tests' blocked deinits may keep waiting for a thread. Bounded real time is
    // the property here: no sweep is called.
    #expect(
      blockingEventually(timeout: .seconds(30)) { lifetimes.alive == 0 },
      "after \(inserted) inserts, \(lifetimes.alive) values alive")
  }

  @Test func hostsThatOthersHoldWeakReferencesToAreSwept() {
    let lifetimes = Lifetimes()
    var references: [WeakReference<Host>] = []
    do {
      let hosts = (0..<50).map { _ in Host() }
      for host in hosts {
        references.append(WeakReference(host))
        Associations(of: host)[value] = lifetimes.make()
      }
    }
    #expect(references.allSatisfy { $0.object == nil })
    #expect(sweepUntil { lifetimes.alive == 0 })
  }

  @Test func aWeakReferenceMadeInADeinitReadsNilAndHoldsNothing() {
    final class SelfReferencing: Sendable {
      let seen: Recording<Bool>
      init(seen: Recording<Bool>) { self.seen = seen }
      deinit {
        // The object may live on the stack (nothing else refers to it): a pin would outlive it.
        seen.append(WeakReference(self).object == nil)
      }
    }
    let seen = Recording<Bool>()
    do { _ = SelfReferencing(seen: seen) }
    do {
      let kept = SelfReferencing(seen: seen)
      Associations(of: kept)[number] = 1
    }
    #expect(seen.values == [true, true])
  }

  @Test func aStrongValueReferencingItsHostKeepsItAlive() {
    final class BackReference: Sendable {
      let host: Host
      init(_ host: Host) { self.host = host }
    }
    enum TheKey: AssociatedKey { typealias Value = BackReference? }
    let key = TheKey.self
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[key] = BackReference(host)
    }
    // ARC has no ephemerons: the cycle host -> value -> host holds.
    #expect(weakHost != nil)
    if let host = weakHost { Associations(of: host)[key] = nil }
    // The removed value, and with it the host, goes by the next sweep.
    AssociationTable.sweep()
    #expect(isDeallocated { weakHost })
  }

  @Test func aWeakBackReferenceLetsTheHostDieAndItsValueGo() {
    final class BackReference: Sendable {
      let host: WeakReference<Host>
      let onDeinit: @Sendable () -> Void
      init(_ host: Host, onDeinit: @escaping @Sendable () -> Void) {
        self.host = WeakReference(host)
        self.onDeinit = onDeinit
      }
      deinit { onDeinit() }
    }
    enum TheKey: AssociatedKey { typealias Value = BackReference? }
    let key = TheKey.self
    let released = Flag()
    weak var weakHost: Host?
    do {
      let host = Host()
      weakHost = host
      Associations(of: host)[key] = BackReference(host) { released.set() }
    }
    #expect(isDeallocated { weakHost })
    #expect(sweepUntil { released.isSet })
  }

  @Test func aHostCanUseItsOwnValuesInItsDeinit() {
    final class SelfReadingHost: Sendable {
      enum Count: AssociatedKey { typealias Value = Int? }
      static let count = Count.self
      enum Late: AssociatedKey { typealias Value = Tracked? }
      static let late = Late.self
      let seen: Recording<Int?>
      let lateValue: Tracked
      init(seen: Recording<Int?>, lateValue: Tracked) {
        self.seen = seen
        self.lateValue = lateValue
      }
      deinit {
        seen.append(Associations(of: self)[Self.count])
        Associations(of: self)[Self.late] = lateValue
        seen.append(Associations(of: self)[Self.late] == nil ? nil : 1)
      }
    }
    let lifetimes = Lifetimes()
    let seen = Recording<Int?>()
    let reports = DiagnosticLog()
    reports.capture {
      do {
        // A host with values keeps them through its deinit, which may change them.
        let host = SelfReadingHost(seen: seen, lateValue: lifetimes.make())
        Associations(of: host)[SelfReadingHost.count] = 3
      }
      #expect(sweepUntil { lifetimes.alive == 0 })
      do {
        // A host without values cannot start keeping some in its deinit: the optimizer may
        // have placed it on the stack, where nothing can outlive it. The value is released at
        // once, with a diagnostic.
        _ = SelfReadingHost(seen: seen, lateValue: lifetimes.make())
      }
      #expect(lifetimes.alive == 0)
    }
    // Only the reports of a host attaching in its deinit: a sweep on a slow machine (the
    // thread sanitizer's) may also report a release it stopped waiting for.
    let deinitReports = reports.all.filter { $0.message.contains("during its deinit") }
    if HostMode.isWeak {
      // On the weak path with no deallocation hook (Linux), a host in its deinit cannot tell
      // its own entry from a dead predecessor's: it sees no values, and cannot add one.
      #expect(seen.values == [nil, nil, nil, nil])
      #expect(deinitReports.count == 2)
    } else {
      #expect(seen.values == [3, 1, nil, nil])
      #expect(deinitReports.count == 1)
    }
  }

  @Test func aSweepReturnsOnlyAfterAConcurrentSweepHasReleasedWhatItTook() {
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let first = Flag()
    let lifetimes = Lifetimes()
    do {
      let hosts = (0..<2).map { _ in Host() }
      for host in hosts {
        // The first value released holds its sweeper inside the release loop.
        Associations(of: host)[value] = lifetimes.make {
          if first.setFirst() {
            entered.signal()
            proceed.wait()
          }
        }
      }
    }
    // Threads of their own: a waiting sweep spins, and must not starve a shared pool of the
    // thread that lets the held one go.
    Thread { AssociationTable.sweep() }.start()
    entered.wait()
    // The held sweep is let go from elsewhere, before or after this thread starts waiting.
    Thread { proceed.signal() }.start()
    AssociationTable.sweep()
    #expect(lifetimes.alive == 0)
  }
}
