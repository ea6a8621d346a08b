import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Affix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child of a fork can read, write, attach, report and sweep, whatever the parent's other
/// threads were doing at the fork.
///
/// Run alone (`AFFIX_FORK_TESTS=alone`, as `.ci/run` does in every host mode): a child's sweep
/// releases every dead host's values in the process, and another test's value whose `deinit`
/// waits for a thread of the parent, or for Dispatch, would hang the child for reasons of its
/// own. Skipped under the thread sanitizer, whose child of a multithreaded fork hangs in the
/// Swift runtime's lazy metadata set-up, whatever the test does.
@Suite(
  .serialized,
  .enabled(if: getenvString("AFFIX_FORK_TESTS") == "alone", "run alone by .ci/run"),
  .disabled(if: threadSanitizerIsActive, "the sanitizer's child of a fork hangs"))
struct ForkTests {
  #if os(Linux) || os(macOS)
    /// What the child of the fork does; returns whether it all worked.
    ///
    /// Called once before the fork too: the Swift runtime instantiates generic metadata lazily,
    /// under locks that another thread of the parent may hold at the fork, so a child may only
    /// use what its parent already used. That is the runtime's rule, not the core's.
    static func readWriteAndSweep(_ host: Host) -> Bool {
      let before = Associations(of: host)[ForkCanaryKey.self]
      Associations(of: host)[ForkCanaryKey.self] = ForkCanary()
      let after = Associations(of: host)[ForkCanaryKey.self]
      AssociationTable.sweep()
      let other = Host()
      Associations(of: other)[ForkCanaryKey.self] = ForkCanary()
      AssociationTable.sweep()
      return before?.isIntact == true && after?.isIntact == true
        && Associations(of: other)[ForkCanaryKey.self] != nil
    }

    @Test
    func theChildOfAForkReadsWritesAndSweeps() throws {
      let host = Host()
      Associations(of: host)[ForkCanaryKey.self] = ForkCanary()
      #expect(Self.readWriteAndSweep(host))
      // The child's sweep may end a dead host's capabilities: done once here first, so that the
      // child uses no type its parent never used (Docs/Internals/Reads.md, "After `fork()`").
      do {
        let dead = Host()
        Associations(of: dead).attach(ForkMarker())
      }
      AssociationTable.sweep()
      let stop = Flag()
      let busy = Counter()
      // Readers inside their sections and a writer retiring values at the fork. The writer
      // writes a host of its own: a storage another thread was writing at the fork may stay
      // locked in the child, which the child must not use (ForkHandlers, "After fork()").
      let written = Host()
      let threads = (0..<3).map { index in
        ReclamationPromiseTests.onThread {
          while !stop.isSet {
            if index == 0 {
              Associations(of: written)[ForkCanaryKey.self] = ForkCanary()
            } else {
              _ = Associations(of: host)[ForkCanaryKey.self]
            }
            busy.increment()
          }
        }
      }
      while busy.value < 10_000 { yieldThread() }
      let child = fork()
      if child == 0 {
        // The child: this thread alone. No test machinery, no Dispatch; `_exit` with a code.
        _exit(Self.readWriteAndSweep(host) ? 0 : 3)
      }
      stop.set()
      for thread in threads { thread.wait() }
      try #require(child > 0)
      // Bounded real time is the property: the child used to hang in its first sweep.
      let outcome = Self.waitForChild(child)
      #expect(outcome == "exited 0", "the child of the fork: \(outcome)")
    }

    /// What the child does with the process-wide locks: attach, report a diagnostic, a key's
    /// first diagnostic, a hooked host's life; returns whether it all worked.
    static func attachReportAndHook() -> Bool {
      let host = Host()
      Associations(of: host).attach(ForkMarker())
      let attached = Associations(of: host).capability(ForkMarker.self) != nil
      let reports = Atomic<Int>(0)
      Diagnostics.setHandler { _ in reports.add(1, ordering: .relaxed) }
      Diagnostics.report(subsystem: "fork", message: "from the child")
      Diagnostics.setHandler(nil)
      _ = Associations(of: host)[WeakPolicyOnAValue.self]
      do {
        let hooked = hookableHost()
        Associations(of: hooked)[ForkCanaryKey.self] = ForkCanary()
      }
      AssociationTable.sweep()
      return attached && reports.load(ordering: .relaxed) == 1
    }

    @Test
    func theChildOfAForkUsesEveryProcessWideLock() throws {
      #expect(Self.attachReportAndHook())
      let members = ProcessLocks.members
      // Every lock the fork handlers must take, named by what takes it.
      let ranks = Set(members.map(\.rank))
      #expect(
        ranks.isSuperset(of: [.capabilityTypes, .keyReports, .diagnosticsHandler, .hostTableWriter])
      )
      let stop = Flag()
      let busy = Counter()
      let threads = (0..<3).map { index in
        ReclamationPromiseTests.onThread {
          let host = Host()
          while !stop.isSet {
            switch index {
            case 0:
              Associations(of: host).attach(ForkMarker())
              _ = Associations(of: host).removeCapability(ForkMarker.self)
            case 1:
              _ = Associations(of: host)[WeakPolicyOnAValue.self]
              let hooked = hookableHost()
              Associations(of: hooked)[ForkCanaryKey.self] = ForkCanary()
            default:
              // Sits inside every process-wide lock in turn, the global handler's included.
              for member in members {
                member.lock()
                member.unlock()
              }
            }
            busy.increment()
          }
        }
      }
      while busy.value < 3_000 { yieldThread() }
      var outcomes: [String] = []
      for _ in 0..<scaled(10) {
        let child = fork()
        if child == 0 { _exit(Self.attachReportAndHook() ? 0 : 3) }
        try #require(child > 0)
        outcomes.append(Self.waitForChild(child))
      }
      stop.set()
      for thread in threads { thread.wait() }
      #expect(outcomes.allSatisfy { $0 == "exited 0" }, "children: \(outcomes)")
    }

    /// The child of a fork makes every lock the handlers took unlocked anew instead of
    /// unlocking it: on Apple platforms the core's lock is an `os_unfair_lock`, which records
    /// its owner's thread and stops the process on an unlock by any other, and the child's one
    /// thread is not the parent's. The twin here records the owning process, which differs in
    /// the child as the thread does there.
    @Test
    func theChildOfAForkReinitializesTheLocksRatherThanUnlockingThem() throws {
      let twin = OwnerRecordingLock()
      ProcessLocks.join(
        .diagnosticsHandler, lock: { twin.lock() }, unlock: { twin.unlock() },
        reinitialize: { twin.reinitialize() })
      let child = fork()
      if child == 0 {
        _exit(twin.unlocksByAnotherOwner == 0 && twin.isUnlocked ? 0 : 3)
      }
      try #require(child > 0)
      let outcome = Self.waitForChild(child)
      #expect(outcome == "exited 0", "the child of the fork: \(outcome)")
      // The parent's handler unlocks what its own thread locked.
      #expect(twin.unlocksByAnotherOwner == 0)
      #expect(twin.isUnlocked)
    }

    /// What the child reads: every kind of value on `values`' host. 0 if each read is a value
    /// a writer stored (or none); 10 for the same when the host's storage was part way through
    /// a write at the fork, whose writer does not exist in the child; 4 to 7 for a read that is
    /// not (the number, the object, the `String`, the observable value).
    static func readEveryKind<H>(_ values: Associations<H>) -> Int32 {
      // Odd numbers only: a pointer read as a number would be even.
      let number = values[ForkNumberKey.self]
      let canary = values[ForkCanaryKey.self]
      let title = values[ForkTitleKey.self]
      let observed = values[ForkObservedKey.self]
      if number & 1 != 1 { return 4 }
      if canary?.isIntact == false { return 5 }
      if title.map(ForkTitleKey.titles.contains) == false { return 6 }
      if observed & 1 != 1 { return 7 }
      let version = values.existingStorage?.version.load(ordering: .relaxed) ?? 0
      return version & 1 == 1 ? 10 : 0
    }

    /// One writer's step on `values`' host: a value of one kind stored, or removed.
    static func write<H>(_ values: Associations<H>, _ step: UInt64) {
      let number = Int(truncatingIfNeeded: step) | 1
      switch step % 8 {
      case 0: values[ForkNumberKey.self] = number
      case 1: values.removeValue(for: ForkNumberKey.self)
      case 2: values[ForkCanaryKey.self] = ForkCanary()
      case 3: values[ForkCanaryKey.self] = nil
      case 4: values[ForkTitleKey.self] = ForkTitleKey.titles[Int(step / 8 % 4)]
      case 5: values[ForkTitleKey.self] = nil
      case 6: values[ForkObservedKey.self] = number
      default: values.removeValue(for: ForkObservedKey.self)
      }
    }

    /// Reads of every kind of value in the child never wait for a thread that does not exist
    /// there, and read what a writer stored: a storage that a writer of the parent was part way
    /// through at the fork stays as the fork left it, its lock held for ever.
    ///
    /// Four writers store and remove an `Int`, an object, a `String` and an observable key's
    /// value on the same hosts (one of them an ``AssociationOwner``), so that their entries
    /// move between the inline ones and the overflow; each round forks, and the child reads
    /// every kind on every host, 1,000 times (in about ten seconds in a debug build).
    @Test
    func theChildOfAForkReadsEveryKindOfValueWhateverTheWritersWereDoing() throws {
      let hosts = (0..<3).map { _ in Host() }
      let owner = OwningHost()
      func readAll() -> [Int32] {
        hosts.map { Self.readEveryKind(Associations(of: $0)) }
          + [Self.readEveryKind(Associations(of: owner))]
      }
      // Every step once, and every read, before the fork (see `readWriteAndSweep(_:)`).
      for host in hosts {
        for step in 0..<16 { Self.write(Associations(of: host), UInt64(step)) }
      }
      for step in 0..<16 { Self.write(Associations(of: owner), UInt64(step)) }
      #expect(readAll().allSatisfy { $0 == 0 })
      let stop = Flag()
      let busy = Counter()
      let writers = (0..<4).map { index in
        ReclamationPromiseTests.onThread {
          var random = SplitMix64(seed: UInt64(index))
          while !stop.isSet {
            let step = random.next()
            let target = Int((step >> 32) % 4)
            if target < hosts.count {
              Self.write(Associations(of: hosts[target]), step)
            } else {
              Self.write(Associations(of: owner), step)
            }
            busy.increment()
          }
        }
      }
      let rounds = scaled(1_000)
      var outcomes: [String: Int] = [:]
      var frozenWrites = 0
      for _ in 0..<rounds {
        let before = busy.value
        while busy.value < before + 100 { yieldThread() }
        let child = fork()
        if child == 0 {
          // The child: this thread alone. Exits with the worst outcome of its reads.
          let reads = readAll()
          _exit(reads.first { $0 != 0 && $0 != 10 } ?? (reads.contains(10) ? 10 : 0))
        }
        try #require(child > 0)
        var outcome = Self.waitForChild(child)
        if outcome == "exited 10" {
          frozenWrites += 1
          outcome = "exited 0"
        }
        outcomes[outcome, default: 0] += 1
      }
      stop.set()
      for writer in writers { writer.wait() }
      #expect(outcomes == ["exited 0": rounds], "children: \(outcomes)")
      // Not a pass condition (the writers' timing decides it), but what makes the test bite.
      print("fork reads: \(rounds) children, \(frozenWrites) found a write stopped part way")
    }

    /// Waits up to ten seconds for `child`, killing it past that; says how it ended.
    static func waitForChild(_ child: pid_t) -> String {
      var status: Int32 = 0
      if blockingEventually(timeout: .seconds(10), { waitpid(child, &status, WNOHANG) == child }) {
        return status & 0x7f == 0 ? "exited \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
      }
      kill(child, SIGKILL)
      _ = waitpid(child, &status, 0)
      return "hung"
    }
  #endif
}

/// The twin of an `os_unfair_lock` for the fork tests: records its owner (the process, which a
/// fork changes as it changes the thread), and counts unlocks by any other owner, where
/// libplatform's `os_unfair_lock_unlock` would stop the process. Spins: the fork handlers hold
/// it only across a fork.
final class OwnerRecordingLock: Sendable {
  private let owner = Atomic<Int32>(0)
  private let badUnlocks = Atomic<Int>(0)

  func lock() {
    while !owner.compareExchange(expected: 0, desired: getpid(), ordering: .acquiring).exchanged {
      yieldThread()
    }
  }

  func unlock() {
    if owner.exchange(0, ordering: .releasing) != getpid() {
      badUnlocks.add(1, ordering: .relaxed)
    }
  }

  func reinitialize() {
    owner.store(0, ordering: .releasing)
  }

  var unlocksByAnotherOwner: Int { badUnlocks.load(ordering: .relaxed) }
  var isUnlocked: Bool { owner.load(ordering: .relaxed) == 0 }
}

/// A capability for the fork tests.
final class ForkMarker: Capability {}

/// A key whose every use takes the lock of the keys reported once: a weak policy on a value.
enum WeakPolicyOnAValue: AssociatedKey {
  typealias Value = Int?
  static let policy = AssociationPolicy.weak
}

/// A value for the fork tests whose contents tell whether it is still alive. It takes no lock:
/// a lock of the test's own, held by a parent thread at the fork, would hang the child in the
/// value's deinit, for reasons that are not the library's.
final class ForkCanary: Sendable {
  static let alive: UInt64 = 0x464F_524B_0000_0001
  let word = Atomic<UInt64>(ForkCanary.alive)

  deinit { word.store(0xDEAD, ordering: .relaxed) }

  var isIntact: Bool { word.load(ordering: .relaxed) == ForkCanary.alive }
}

enum ForkCanaryKey: AssociatedKey { typealias Value = ForkCanary? }

/// An inline value for the fork tests: odd, as every value the writers store.
enum ForkNumberKey: AssociatedKey { static let defaultValue = 1 }

/// A `String` value for the fork tests: one of `titles`, each too long to be stored inline.
enum ForkTitleKey: AssociatedKey {
  typealias Value = String?
  static let titles = (0..<4).map { "a title long enough for the heap, number \($0)" }
}

/// An observable value for the fork tests: odd, as every value the writers store.
enum ForkObservedKey: ObservableKey { static let defaultValue = 1 }

/// A host that takes the deallocation hooks' lock in the hooked mode: the twin, which exists
/// with the TestSeams trait alone; any host without it.
private func hookableHost() -> AnyObject {
  #if TestSeams
    HookedHost()
  #else
    Host()
  #endif
}
