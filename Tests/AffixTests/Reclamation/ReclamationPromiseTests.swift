import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Affix

/// What users rely on around the lock-free reads: retired values stay bounded however fast
/// writers go and however slow the deinits, `sweep()` returns under load, a replaced value's
/// deinit never runs inside the write that replaced it, and a slow deinit keeps its values.
@Suite struct ReclamationPromiseTests {
  /// Counts the values alive and the most that were alive at once.
  final class LiveCount: Sendable {
    private let alive = Atomic<Int>(0)
    private let most = Atomic<Int>(0)

    func made() {
      let now = alive.add(1, ordering: .relaxed).newValue
      var seen = most.load(ordering: .relaxed)
      while now > seen {
        let (exchanged, current) = most.compareExchange(
          expected: seen, desired: now, ordering: .relaxed)
        if exchanged { break }
        seen = current
      }
    }

    func released() { alive.subtract(1, ordering: .relaxed) }

    var current: Int { alive.load(ordering: .relaxed) }
    var peak: Int { most.load(ordering: .relaxed) }
  }

  /// A value whose deinit takes about `microseconds`, as one that closes a handle does.
  final class SlowValue: Sendable {
    let count: LiveCount
    let microseconds: Int

    init(_ count: LiveCount, microseconds: Int = 5) {
      self.count = count
      self.microseconds = microseconds
      count.made()
    }

    deinit {
      busyWait(microseconds: microseconds)
      count.released()
    }
  }

  enum SlowKey: AssociatedKey { typealias Value = SlowValue? }

  /// Runs `body` on a thread of its own and returns a semaphore signalled when it returns.
  @discardableResult
  static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.start()
    return done
  }

  @Test func retiredValuesStayUnderTheBoundHoweverFastTwoWritersReplace() {
    let count = LiveCount()
    let host = Host()
    let writes = scaled(200_000)
    let writers = (0..<2).map { _ in
      Self.onThread {
        for _ in 0..<writes {
          Associations(of: host)[SlowKey.self] = SlowValue(count)
        }
      }
    }
    for writer in writers { writer.wait() }
    // Each writer holds the value it is about to store, and the host holds one.
    let replacedAtPeak = count.peak - 3
    // The bound that applies to two writers, not the one for every shard: each writer's shard
    // holds up to a shard's worth, the writer may be releasing a batch as large, and the one
    // drain under way may hold what both shards held.
    let bound = 2 * 3 * RetirementStatistics.shardLimit
    #expect(replacedAtPeak <= bound, "\(replacedAtPeak) replaced values were alive at once")
    Associations(of: host)[SlowKey.self] = nil
    #expect(sweepUntil { count.current == 0 })
  }

  @Test func aSweepDoesNotWaitForAReleaseBegunWhileItReleases() {
    // A value whose deinit, run by the sweep on this thread, makes another thread begin a
    // release and keep it under way: a release that began after the sweep took its work.
    final class StartsARelease: Sendable {
      let sweeper: UInt
      let ticket: SanitizerVisibleLock<Int?>
      init(sweeper: UInt, ticket: SanitizerVisibleLock<Int?>) {
        self.sweeper = sweeper
        self.ticket = ticket
      }
      deinit {
        guard currentThreadID() == sweeper else { return }
        let ticket = ticket
        ReclamationPromiseTests.onThread { ticket.withLock { $0 = ReleaseQueue.beginRelease() } }
          .wait()
      }
    }
    enum Key: AssociatedKey { typealias Value = StartsARelease? }
    let host = Host()
    let ticket = SanitizerVisibleLock<Int?>(nil)
    var bound = 0
    // The Dispatch drain may take the value first (a millisecond later); then try again.
    for _ in 0..<100 where ticket.withLock({ $0 }) == nil {
      Associations(of: host)[Key.self] = StartsARelease(sweeper: currentThreadID(), ticket: ticket)
      Associations(of: host)[Key.self] = nil
      bound = ReleaseQueue.releaseAllAndWait()
    }
    let late = ticket.withLock { $0 }
    #expect(late != nil, "no deinit ran inside the sweep")
    if let late {
      #expect(late >= bound, "the sweep waited for a release begun while it released")
      ReleaseQueue.endRelease(late)
    }
  }

  @Test func sweepReturnsWhileAWriterKeepsReplacing() {
    let count = LiveCount()
    let host = Host()
    let stop = Flag()
    let stoppedByItsCap = Flag()
    let reports = Recording<Diagnostic>()
    let writer = Self.onThread {
      // Capped, so that a sweep that never returns fails the test instead of hanging it.
      let cap = ContinuousClock.now + .seconds(30)
      while !stop.isSet {
        for _ in 0..<100 { Associations(of: host)[SlowKey.self] = SlowValue(count) }
        if ContinuousClock.now > cap {
          stoppedByItsCap.set()
          return
        }
      }
    }
    // Sweep into a backlog of replaced values if the writer builds one within a few seconds.
    // Where releases keep up with it (as once under the thread sanitizer, for the writer's 30 s)
    // there is none, and the sweeps must return all the same; waiting on for one hung the run.
    let backlogDeadline = ContinuousClock.now + .seconds(5)
    while count.peak < 1_000, ContinuousClock.now < backlogDeadline { yieldThread() }
    // Only the report of a sweep that gave up waiting counts: a sweep here also reports the
    // hosts of other tests that linger in a slow deinit, which says nothing of this writer.
    Diagnostics.withHandler(
      { if $0.message.hasPrefix("sweep() returned") { reports.append($0) } },
      operation: {
        for _ in 0..<5 { AssociationTable.sweep() }
      })
    stop.set()
    writer.wait()
    #expect(!stoppedByItsCap.isSet, "sweep() returned only once the writer stopped")
    // Under the thread sanitizer a batch of the writer's releases, begun before a sweep, can
    // outlast the sweep's two-second wait for it: the sweep then returns and says so, which
    // is the promise kept, slowly. Elsewhere no sweep needs that long.
    if !threadSanitizerIsActive {
      #expect(reports.values.isEmpty, "\(reports.values)")
    }
    Associations(of: host)[SlowKey.self] = nil
    #expect(sweepUntil { count.current == 0 })
  }

  /// How a write takes a value out of its entry while slow user code runs in the write.
  enum SlowWrite: CaseIterable, Sendable {
    case setOver, setNil, update, attachOverCapability
  }

  /// The thread inside a write now, if any.
  static let writing = SanitizerVisibleLock<String?>(nil)

  final class ThreadRecordingValue: Capability {
    /// Whether the deinit ran on a thread while that thread was inside the write.
    let releasedInsideTheWrite = SanitizerVisibleLock<Bool?>(nil)
    let released = DispatchSemaphore(value: 0)
    let detachTakes: Double

    init(detachTakes: Double = 0) { self.detachTakes = detachTakes }

    func didEnd(_ ending: CapabilityEnding) { Thread.sleep(forTimeInterval: detachTakes) }

    deinit {
      let inside = ReclamationPromiseTests.writing.withLock { $0 == currentThread() }
      releasedInsideTheWrite.withLock { $0 = inside }
      released.signal()
    }
  }

  enum RecordingKey: AssociatedKey { typealias Value = ThreadRecordingValue? }

  // Serialized: the cases share `writing`.
  @Test(.serialized, arguments: SlowWrite.allCases)
  func aReplacedValueIsNeverReleasedInsideTheWriteThatReplacedIt(write: SlowWrite) {
    let host = Host()
    let released: DispatchSemaphore
    let releasedInsideTheWrite: SanitizerVisibleLock<Bool?>
    do {
      // The test keeps no reference of its own: the storage's is the value's last.
      let old = ThreadRecordingValue(detachTakes: 0.1)
      released = old.released
      releasedInsideTheWrite = old.releasedInsideTheWrite
      if write == .attachOverCapability {
        Associations(of: host).attach(old)
      } else {
        Associations(of: host)[RecordingKey.self] = old
      }
    }
    // Longer than a grace period: the release queue drains meanwhile.
    let token = Associations(of: host).observe(
      RecordingKey.self,
      nonisolated: { _ in
        Thread.sleep(forTimeInterval: 0.1)
      })
    defer { token.cancel() }
    Self.writing.withLock { $0 = currentThread() }
    switch write {
    case .setOver: Associations(of: host)[RecordingKey.self] = ThreadRecordingValue()
    case .setNil: Associations(of: host)[RecordingKey.self] = nil
    case .update: Associations(of: host).update(RecordingKey.self) { $0 = ThreadRecordingValue() }
    case .attachOverCapability: Associations(of: host).attach(ThreadRecordingValue())
    }
    Self.writing.withLock { $0 = nil }
    Self.onThread { AssociationTable.sweep() }
    #expect(released.wait(timeout: .now() + 30) == .success)
    #expect(releasedInsideTheWrite.withLock { $0 } == false)
  }

  /// A value that says, when released, whether its deinit ran on the main queue.
  final class MainQueueRecorder: Sendable {
    enum Key: AssociatedKey { typealias Value = MainQueueRecorder? }
    let released: @Sendable (_ onMainQueue: Bool) -> Void
    init(released: @escaping @Sendable (_ onMainQueue: Bool) -> Void) { self.released = released }
    deinit { released(MainQueue.isCurrent) }
  }

  /// Stores a value and removes it in `place`, which runs the writes where the test says, and
  /// returns whether the value's deinit ran on the main queue.
  nonisolated(nonsending) static func releasedOnTheMainQueue(
    writingIn place: (_ writes: @escaping @Sendable () -> Void) -> Void
  ) async -> Bool {
    let host = Host()
    return await withCheckedContinuation { continuation in
      place {
        Associations(of: host)[MainQueueRecorder.Key.self] = MainQueueRecorder {
          continuation.resume(returning: $0)
        }
        // The storage's reference is the value's last now.
        Associations(of: host)[MainQueueRecorder.Key.self] = nil
      }
    }
  }

  // No hook: Swift Testing runs the main actor on a Dispatch thread on Linux, not on the
  // process's first thread, as every `async` program there does.
  @MainActor @Test func aValueReplacedOnTheMainActorIsReleasedOnTheMainQueue() async {
    let writesOnTheMainQueue = SanitizerVisibleLock<Bool?>(nil)
    let released = await Self.releasedOnTheMainQueue { writes in
      writesOnTheMainQueue.withLock { $0 = MainQueue.isCurrent }
      writes()
    }
    #expect(writesOnTheMainQueue.withLock { $0 } == true, "the writes left the main actor")
    #expect(released)
  }

  // Another thread's drain may take the main queue's retired objects and hand them back to the
  // main queue while a sweep there waits for that drain: the sweep releases them before it
  // returns, as it promises for everything retired before it was called.
  @MainActor @Test func aSweepOnTheMainQueueReleasesWhatADrainItWaitedForHandedBack() {
    let released = SanitizerVisibleLock(false)
    let host = Host()
    Associations(of: host)[MainQueueRecorder.Key.self] = MainQueueRecorder { _ in
      released.withLock { $0 = true }
    }
    Associations(of: host)[MainQueueRecorder.Key.self] = nil
    let taken = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      Retirement.drain(includingMain: false) {
        taken.signal()
        // Holds the drain, already counted as under way, until the sweep below waits for it.
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    taken.wait()
    AssociationTable.sweep()
    #expect(released.withLock { $0 }, "left to a main-queue block")
    withExtendedLifetime(host) {}
  }

  @Test func aValueReplacedInAMainQueueBlockIsReleasedOnTheMainQueue() async {
    #expect(
      await Self.releasedOnTheMainQueue { writes in DispatchQueue.main.async(execute: writes) })
  }

  // A sweep that a test running beside this one makes on the main queue releases everything
  // retired before it, there, as promised: so of a few rounds, one at least must be released
  // off the main queue. Were every value replaced off it released on it, all rounds would be.
  @Test func aValueReplacedOffTheMainQueueIsReleasedOffIt() async {
    var releasedOffIt = false
    for _ in 0..<5 where !releasedOffIt {
      releasedOffIt = await !Self.releasedOnTheMainQueue { writes in
        DispatchQueue.global().async(execute: writes)
      }
    }
    #expect(releasedOffIt)
  }

  /// A host whose deinit reads its value after 1.5 s.
  final class SlowHost: Sendable {
    enum Name: AssociatedKey { typealias Value = String? }
    let seen: Recording<String?>
    init(seen: Recording<String?>) { self.seen = seen }
    deinit {
      // Longer than the second after which sweeps used to give a deinit's values up.
      Thread.sleep(forTimeInterval: 1.5)
      seen.append(Associations(of: self)[Name.self])
    }
  }

  /// A host whose values hold it `unowned`, as a controller holds `unowned let view`.
  final class UnownedHeldHost: Sendable {
    final class BackReference: Sendable {
      enum Key: AssociatedKey { typealias Value = BackReference? }
      unowned let host: UnownedHeldHost
      let count: LiveCount
      init(_ host: UnownedHeldHost, count: LiveCount) {
        self.host = host
        self.count = count
        count.made()
      }
      deinit { count.released() }
    }
  }

  // A grace of 5 s for this test's own sweeps alone (the process's stays as it is, for other
  // tests' hosts): past the 1.5 s deinit of the host that must keep its value.
  @Test func valuesThatHoldTheirHostUnownedAreReleasedAfterTheGrace() {
    let seen = Recording<String?>()
    let slowHostDied = Self.onThread {
      let host = SlowHost(seen: seen)
      Associations(of: host)[SlowHost.Name.self] = "kept"
    }
    let values = LiveCount()
    // One host also has a capability and an observer, told as its death would tell them.
    let ending = Recording<CapabilityEnding>()
    let observed = Recording<Bool>()
    var token: CancellationToken?
    for index in 0..<10_000 {
      let host = UnownedHeldHost()
      Associations(of: host)[UnownedHeldHost.BackReference.Key.self] =
        UnownedHeldHost.BackReference(host, count: values)
      guard index == 0 else { continue }
      Associations(of: host).attach(GraceWitness(ending))
      token = Associations(of: host).observe(
        UnownedHeldHost.BackReference.Key.self,
        nonisolated: {
          observed.append($0 == nil)
        })
    }
    // Bounded real time is the property: the grace, then a sweep.
    let deadline = ContinuousClock.now + .seconds(30)
    while values.current > 0, ContinuousClock.now < deadline {
      HostTable.sweep(deinitGrace: .seconds(5))
      Thread.sleep(forTimeInterval: 0.05)
    }
    #expect(values.current == 0, "\(values.current) of 10,000 values still hold their hosts")
    // Their hosts' memory went with them: no such host is left in the table.
    #expect(sweepUntil { HostTable.hostCount(of: UnownedHeldHost.self) == 0 })
    slowHostDied.wait()
    #expect(ending.values == [.hostDied])
    if !HostMode.isWeak {
      #expect(seen.values == ["kept"], "the slow deinit lost its value")
      // Past the grace the values are removed, and the observer hears it; a death on the weak
      // path drops observers unheard.
      #expect(observed.values == [true])
    }
    token?.cancel()
  }

  /// Records how it ended.
  final class GraceWitness: Capability {
    let ending: Recording<CapabilityEnding>
    init(_ ending: Recording<CapabilityEnding>) { self.ending = ending }
    func didEnd(_ ending: CapabilityEnding) { self.ending.append(ending) }
  }

  @Test func aNegativeGraceIsRefused() {
    let before = AssociationTable.deinitGrace
    let reports = DiagnosticLog.capture { AssociationTable.deinitGrace = .seconds(-1) }
    #expect(AssociationTable.deinitGrace == before)
    #expect(reports.messages.contains { $0.contains("is negative") })
  }

  @Test(.disabled(if: HostMode.isWeak, "the weak path on Linux has no deinit reads"))
  func aHostKeepsItsValuesThroughASlowDeinit() {
    let seen = Recording<String?>()
    let finished = Flag()
    let sweeper = Self.onThread {
      while !finished.isSet {
        AssociationTable.sweep()
        Thread.sleep(forTimeInterval: 0.1)
      }
    }
    do {
      let host = SlowHost(seen: seen)
      Associations(of: host)[SlowHost.Name.self] = "socket 7"
    }
    finished.set()
    sweeper.wait()
    #expect(seen.values == ["socket 7"])
  }

  // A failing `membarrier` is made by a test switch, compiled in with the TestSeams trait.
  #if TestSeams
    @Test func aGracePeriodOutlivesAFailingMembarrier() {
      let count = LiveCount()
      let host = Host()
      Associations(of: host)[SlowKey.self] = SlowValue(count, microseconds: 0)
      // The process used to abort here. Grace periods on other threads may take the failures
      // too: either way each must end, by the global barrier, and the value must go.
      ReadSections.failNextMembarriers(1)
      Associations(of: host)[SlowKey.self] = nil
      #expect(sweepUntil { count.current == 0 })
      if ReadSections.useAsymmetricFence {
        #expect(ReadSections.pendingMembarrierFailures == 0)
      }
      ReadSections.failNextMembarriers(0)
    }
  #endif
}

/// Spins for about `microseconds`: a deinit that does real work.
func busyWait(microseconds: Int) {
  guard microseconds > 0 else { return }
  let clock = ContinuousClock()
  let end = clock.now.advanced(by: .microseconds(microseconds))
  while clock.now < end {}
}

/// Names the calling thread while it runs (not `Thread.current`, whose object a thread that
/// Foundation did not start may not keep: another thread's can take its address).
func currentThread() -> String {
  "\(pthread_self())"
}
