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
    let bound = 2 * RetirementStatistics.waitingBound + 2 * RetirementStatistics.shardLimit
    #expect(replacedAtPeak <= bound, "\(replacedAtPeak) replaced values were alive at once")
    Associations(of: host)[SlowKey.self] = nil
    #expect(sweepUntil { count.current == 0 })
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
    #expect(reports.values.isEmpty, "\(reports.values)")
    Associations(of: host)[SlowKey.self] = nil
    #expect(sweepUntil { count.current == 0 })
  }

  /// How a write takes a value out of its entry while slow user code runs in the write.
  enum SlowWrite: CaseIterable, Sendable {
    case setOver, setNil, update, attachOverCapability
  }

  /// The thread inside a write now, if any.
  static let writing = Locked<String?>(nil)

  final class ThreadRecordingValue: Capability {
    /// Whether the deinit ran on a thread while that thread was inside the write.
    let releasedInsideTheWrite = Locked<Bool?>(nil)
    let released = DispatchSemaphore(value: 0)
    let detachTakes: Double

    init(detachTakes: Double = 0) { self.detachTakes = detachTakes }

    func didDetach() { Thread.sleep(forTimeInterval: detachTakes) }

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
    let releasedInsideTheWrite: Locked<Bool?>
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
    let token = Associations(of: host).observe(RecordingKey.self) { _ in
      Thread.sleep(forTimeInterval: 0.1)
    }
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

  @Test func aValueReplacedOnTheMainThreadIsReleasedOnTheMainQueue() {
    final class MainQueueRecorder: Sendable {
      static let key = DispatchSpecificKey<Bool>()
      let onMainQueue = Locked<Bool?>(nil)
      let released = DispatchSemaphore(value: 0)
      deinit {
        onMainQueue.withLock { $0 = DispatchQueue.getSpecific(key: Self.key) == true }
        released.signal()
      }
    }
    enum MainKey: AssociatedKey { typealias Value = MainQueueRecorder? }
    DispatchQueue.main.setSpecific(key: MainQueueRecorder.key, value: true)
    let host = Host()
    let recorded = Locked<(Locked<Bool?>, DispatchSemaphore)?>(nil)
    Self.onThread {
      // Linux's async programs give the main thread to Dispatch: this thread plays its part.
      RetirementStatistics.retireAsMainThread()
      do {
        let old = MainQueueRecorder()
        recorded.withLock { $0 = (old.onMainQueue, old.released) }
        Associations(of: host)[MainKey.self] = old
      }
      // The storage's reference is the value's last now.
      Associations(of: host)[MainKey.self] = nil
    }.wait()
    let (onMainQueue, released) = recorded.withLock { $0! }
    // A sweep on another thread leaves the main thread's values to the main queue.
    AssociationTable.sweep()
    #expect(released.wait(timeout: .now() + 30) == .success)
    #expect(onMainQueue.withLock { $0 } == true)
  }

  @Test(.disabled(if: HostMode.isWeak, "the weak path on Linux has no deinit reads"))
  func aHostKeepsItsValuesThroughASlowDeinit() {
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
