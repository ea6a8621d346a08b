import Affix
import Dispatch
import Foundation
import Synchronization

/// The promises around retired values: their backlog stays bounded whatever the write rate and
/// however slow the deinits, `sweep()` returns while writers keep writing, and object writes
/// on different hosts scale with threads, as no global lock serializes them.
extension CoreBenchmark {
  /// A value whose deinit takes about five microseconds, as one that closes a handle does.
  final class SlowToken: Sendable {
    static let alive = Atomic<Int>(0)
    static let mostAlive = Atomic<Int>(0)

    init() {
      let now = Self.alive.add(1, ordering: .relaxed).newValue
      var seen = Self.mostAlive.load(ordering: .relaxed)
      while now > seen {
        let (exchanged, current) = Self.mostAlive.compareExchange(
          expected: seen, desired: now, ordering: .relaxed)
        if exchanged { break }
        seen = current
      }
    }

    deinit {
      let clock = ContinuousClock()
      let end = clock.now.advanced(by: .microseconds(5))
      while clock.now < end {}
      Self.alive.subtract(1, ordering: .relaxed)
    }
  }

  enum SlowTokenKey: AssociatedKey { typealias Value = SlowToken? }

  /// A host the benchmark's threads share.
  final class SharedHost: Sendable {}

  /// A host with a stored property for B0. Each thread writes only its own hosts.
  final class PropertyHost: @unchecked Sendable {
    var token: SharedToken?
  }

  final class SharedToken: Sendable {}

  enum SharedTokenKey: AssociatedKey { typealias Value = SharedToken? }

  static func reclamation(quick: Bool) {
    retiredBacklog(quick: quick)
    ownerReleaseBacklog()
    sweepUnderWrites(quick: quick)
    objectSetScaling(quick: quick)
  }

  /// Two threads replace one host's object value as fast as they can; its deinit takes 5 µs.
  static func retiredBacklog(quick: Bool) {
    let writes = quick ? 50_000 : 200_000
    let host = SharedHost()
    SlowToken.mostAlive.store(0, ordering: .relaxed)
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      for _ in 0..<writes { Associations(of: host)[SlowTokenKey.self] = SlowToken() }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    Associations(of: host)[SlowTokenKey.self] = nil
    AssociationTable.sweep()
    // The host's value and one in each writer's hand are not retired.
    let peak = SlowToken.mostAlive.load(ordering: .relaxed) - 3
    report(
      "core.retired_backlog_peak", Double(peak),
      "values (2 writers x \(writes) replacements with 5 us deinits in "
        + "\(formatted(elapsed / 1e6, digits: 0)) ms; target at most 50,000)", digits: 0)
  }

  /// Main-actor state with a deinit of about five microseconds, kept in an `IsolationBound`.
  final class SlowMainState {
    deinit {
      let clock = ContinuousClock()
      let end = clock.now.advanced(by: .microseconds(5))
      while clock.now < end {}
    }
  }

  enum BoundStateKey: AssociatedKey { typealias Value = IsolationBound<SlowMainState>? }

  /// A storm of dying hosts, each holding a main-actor value with a 5 µs deinit: two threads
  /// attach the values to hosts, let the hosts die and sweep, so that every value is dropped
  /// off the main queue and handed to it; the main queue runs meanwhile. The figure is the
  /// most releases that waited for it at once.
  static func ownerReleaseBacklog() {
    let hosts = 20_000
    let values = MainActor.assumeIsolated {
      (0..<hosts).map { _ in IsolationBound(SlowMainState()) }
    }
    // The workers take the values one by one: no copy but the host's outlives its host.
    let pool = LockedState(values)
    _ = consume values
    OwnerRelease.resetPeak()
    let done = Atomic<Int>(0)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<2 {
      DispatchQueue.global().async {
        var made = 0
        while let value = pool.withLock({ $0.popLast() }) {
          let host = SharedHost()
          Associations(of: host)[BoundStateKey.self] = value
          made += 1
          if made % 1_000 == 0 { AssociationTable.sweep() }
        }
        AssociationTable.sweep()
        done.add(1, ordering: .releasing)
      }
    }
    // The main queue runs while the storm lasts, and until what it was handed is released.
    while done.load(ordering: .acquiring) < 2 || OwnerRelease.backlog.now > 0 {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    report(
      "core.owner_release_backlog_peak", Double(OwnerRelease.backlog.peak),
      "releases (the most main-actor values waiting for the main queue at once: "
        + "\(hosts) dying hosts, 2 threads, 5 us deinits, \(formatted(elapsed / 1e6, digits: 0)) ms; "
        + "target at most \(hosts), the values dropped)", digits: 0)
  }

  /// The worst of five sweeps while one thread keeps replacing a value with a 5 µs deinit.
  static func sweepUnderWrites(quick: Bool) {
    let host = SharedHost()
    let stop = Atomic<Bool>(false)
    let writer = DispatchGroup()
    DispatchQueue.global().async(group: writer) {
      while !stop.load(ordering: .relaxed) {
        Associations(of: host)[SlowTokenKey.self] = SlowToken()
      }
    }
    while SlowToken.alive.load(ordering: .relaxed) < 100 {}
    var worst = 0.0
    for _ in 0..<5 {
      let start = DispatchTime.now().uptimeNanoseconds
      AssociationTable.sweep()
      worst = max(worst, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    stop.store(true, ordering: .relaxed)
    writer.wait()
    Associations(of: host)[SlowTokenKey.self] = nil
    AssociationTable.sweep()
    report(
      "core.sweep_under_writes_ms", worst / 1e6,
      "ms (worst of 5 sweeps while a writer replaces a value with a 5 us deinit; "
        + "target at most 50)")
  }

  /// Object sets on distinct hosts, one thread against two, beside the same loop over a stored
  /// property (B0), which says what two threads gain on this machine at all.
  static func objectSetScaling(quick: Bool) {
    let passes = quick ? 50 : 300
    let hostSets = (0..<2).map { _ in (0..<1_000).map { _ in PropertyHost() } }
    // Tokens of each thread's own, so that no reference count is shared between the threads.
    let tokens = (0..<2).map { _ in (0..<4).map { _ in SharedToken() } }
    let set: @Sendable (Int) -> Void = { set in
      for pass in 0..<passes {
        let token = tokens[set][pass % 4]
        for host in hostSets[set] { Associations(of: host)[SharedTokenKey.self] = token }
      }
    }
    let setB0: @Sendable (Int) -> Void = { set in
      for pass in 0..<passes {
        let token = tokens[set][pass % 4]
        for host in hostSets[set] { storeToken(token, in: host) }
      }
    }
    let (one, two) = oneThreadAgainstTwo(operationsPerThread: passes * 1_000, set)
    let (b0One, b0Two) = oneThreadAgainstTwo(operationsPerThread: passes * 1_000, setB0)
    AssociationTable.sweep()
    report("core.set_object_one_thread", one, "ns/op")
    report("core.set_object_two_threads", two, "ns/op (per set, both threads together)")
    reportRatio("core.set_object_two_thread_scaling", one / two)
    reportRatio("core.b0_set_object_two_thread_scaling", b0One / b0Two)
  }

  @inline(never)
  static func storeToken(_ token: SharedToken, in host: PropertyHost) { host.token = token }
}
