import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

/// Several threads hammer shared and private hosts at once; run under the thread sanitizer by
/// CI (with `AFFIX_STRESS_SCALE` to keep it to seconds there).
@Suite struct StressTests {
  /// What one thread checks as it goes and leaves behind for the final checks.
  final class ThreadLog: Sendable {
    private let messages = SanitizerVisibleLock<[String]>([])

    func fail(_ message: String) {
      messages.withLock { if $0.count < 10 { $0.append(message) } }
    }

    var failures: [String] { messages.withLock { $0 } }
  }

  @Test func threadsMixingEveryOperationLeaveConsistentState() {
    let threadCount = 3
    let operations = scaled(100_000)
    let sharedHosts = (0..<16).map { _ in Host() }
    enum Own {}
    // Inline values; `nilIfAbsent` maps their default to nil.
    let ownKeys = manyIntKeys(threadCount, under: Own.self)
    enum SharedObject: AssociatedKey { typealias Value = Tracked? }
    let sharedObject = SharedObject.self
    enum SharedText: AssociatedKey { typealias Value = String? }
    let sharedText = SharedText.self
    let lifetimes = Lifetimes()
    let logs = (0..<threadCount).map { _ in ThreadLog() }
    let finalExpectations = SanitizerVisibleLock<[[Int?]]>(Array(repeating: [], count: threadCount))

    DispatchQueue.concurrentPerform(iterations: threadCount) { thread in
      var rng = SplitMix64(seed: 0xA55E_0000 + UInt64(thread))
      let log = logs[thread]
      let ownKey = ownKeys[thread]
      var expected = [Int?](repeating: nil, count: sharedHosts.count)
      var ownHosts = (0..<8).map { _ in Host() }
      let observed = ownHosts[0]
      let notifications = Counter()
      var expectedNotifications = 0
      var token: CancellationToken?

      for operation in 0..<operations {
        let roll = Int(rng.next() % 100)
        let index = Int(rng.next() % UInt64(sharedHosts.count))
        let shared = sharedHosts[index]
        switch roll {
        case 0..<20:
          Associations(of: shared)[ownKey] = operation
          expected[index] = operation
        case 20..<32:
          let read = Associations(of: shared)[ownKey].nilIfAbsent
          if read != expected[index] {
            log.fail(
              "op \(operation): own key on shared host \(index) read \(String(describing: read))")
          }
        case 32..<36:
          let removed = Associations(of: shared).removeValue(for: ownKey).nilIfAbsent
          if removed != expected[index] {
            log.fail("op \(operation): remove gave \(String(describing: removed))")
          }
          expected[index] = nil
        case 36..<46:
          let got = Associations(of: shared).value(for: sharedObject) { lifetimes.make(operation) }
          if !got.isAlive { log.fail("op \(operation): get-or-create returned a dead value") }
        case 46..<50:
          if let removed = Associations(of: shared).removeValue(for: sharedObject), !removed.isAlive
          {
            log.fail("op \(operation): remove returned a dead value")
          }
        case 50..<56:
          if let read = Associations(of: shared)[sharedObject], !read.isAlive {
            log.fail("op \(operation): read a dead value")
          }
        case 56..<62:
          Associations(of: shared)[sharedText] = "thread \(thread) op \(operation)"
          if let text = Associations(of: shared)[sharedText], !text.hasPrefix("thread ") {
            log.fail("op \(operation): torn text \(text)")
          }
        case 62..<66:
          let recorder = Associations(of: shared).capability(Recorder.self) { Recorder(operation) }
          if recorder.detachments > 1 { log.fail("op \(operation): detached twice") }
        case 66:
          Associations(of: shared).removeCapability(Recorder.self)
        case 67..<79:
          let own = Int(rng.next() % UInt64(ownHosts.count))
          let host = ownHosts[own]
          if roll.isMultiple(of: 3) {
            if Associations(of: host).removeValue(for: ownKey).nilIfAbsent != nil, own == 0,
              token != nil
            {
              expectedNotifications += 1
            }
          } else {
            Associations(of: host)[ownKey] = operation
            if own == 0, token != nil { expectedNotifications += 1 }
          }
          Associations(of: host)[sharedObject] = lifetimes.make(operation)
        case 79..<84:
          // Churn: a private host dies with its values and a new one takes its place.
          let own = 1 + Int(rng.next() % UInt64(ownHosts.count - 1))
          let host = Host()
          Associations(of: host)[sharedObject] = lifetimes.make(operation)
          Associations(of: host)[ownKey] = operation
          ownHosts[own] = host
        case 84..<87:
          if let active = token {
            active.cancel()
            token = nil
          } else {
            token = Associations(of: observed).observe(
              ownKey, nonisolated: { _ in notifications.increment() })
          }
        case 87:
          AssociationTable.sweep()
        default:
          let keys = Associations(of: shared).keys
          if keys.count > threadCount + 3 { log.fail("op \(operation): \(keys.count) keys listed") }
          if Associations(of: shared).capabilities.count > 1 {
            log.fail("op \(operation): two capabilities of one type")
          }
        }
      }
      token?.cancel()
      if notifications.value != expectedNotifications {
        log.fail("observer saw \(notifications.value) changes, expected \(expectedNotifications)")
      }
      finalExpectations.withLock { $0[thread] = expected }
    }

    for log in logs {
      for failure in log.failures { Issue.record(Comment(rawValue: failure)) }
    }
    let expectations = finalExpectations.withLock { $0 }
    for thread in 0..<threadCount {
      for (index, host) in sharedHosts.enumerated() {
        #expect(
          Associations(of: host)[ownKeys[thread]].nilIfAbsent == expectations[thread][index])
      }
    }
    for host in sharedHosts {
      #expect(Associations(of: host).capabilities.count <= 1)
      Associations(of: host).removeCapability(Recorder.self)
      Associations(of: host)[sharedObject] = nil
    }
    // Every value made is gone: private hosts died and were swept, shared values removed.
    #expect(sweepUntil { lifetimes.alive == 0 })
  }
  /// Readers look up live hosts while another thread kills the hosts around them and sweeps, so
  /// that removals shift the live hosts' slots backward under the readers (about 6,000 moves a
  /// round). A slot reads empty for a moment while a host moves into it: the reader must take
  /// that for "look again", not for "no value", and must never take another host's storage.
  @Test func readersFindTheirOwnHostsStorageWhileSweepsShiftSlots() {
    enum Identity: AssociatedKey { static let defaultValue = Int.min }
    let identity = Identity.self
    let failures = Recording<String>()
    for _ in 0..<scaled(20) {
      // Doomed hosts enter the table first, so that live hosts whose home slots they hold are
      // placed after them, and move back when they go.
      let doomed = SanitizerVisibleLock((0..<4_096).map { _ in Host() })
      for host in doomed.withLock({ $0 }) { Associations(of: host)[identity] = -1 }
      let live = (0..<512).map { _ in Host() }
      for (index, host) in live.enumerated() { Associations(of: host)[identity] = index }
      let writerDone = Atomic<Bool>(false)
      DispatchQueue.concurrentPerform(iterations: 3) { thread in
        if thread == 0 {
          defer { writerDone.store(true, ordering: .releasing) }
          while doomed.withLock({
            $0.removeLast(min(256, $0.count))
            return !$0.isEmpty
          }) {
            AssociationTable.sweep()
          }
          AssociationTable.sweep()
          return
        }
        while !writerDone.load(ordering: .acquiring), failures.count < 10 {
          for (index, host) in live.enumerated() {
            let read = Associations(of: host)[identity]
            if read != index {
              failures.append("host \(index) read \(String(describing: read))")
            }
          }
        }
      }
    }
    for failure in failures.values.prefix(10) { Issue.record(Comment(rawValue: failure)) }
  }
}
