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

/// Read sections nest, so that a signal handler (or user code a read runs) may read; their
/// set-up never waits for itself; and the child of a fork can read, write and sweep.
@Suite struct ForkAndSignalTests {
  @Test func aNestedSectionKeepsTheOuterOneOpen() {
    #expect(!ReadSections.isInsideSection)
    let outer = ReadSections.enter()
    let inner = ReadSections.enter()
    ReadSections.leave(inner)
    // The section a handler interrupted still protects what it loaded.
    #expect(ReadSections.isInsideSection)
    ReadSections.leave(outer)
    #expect(!ReadSections.isInsideSection)
  }

  @Test func aFirstReadDuringTheSetUpNeitherWaitsNorSkipsTheFence() {
    let host = Host()
    Associations(of: host)[SignalCanaryKey.self] = SignalCanary()
    let fencesFully = Locked<Bool?>(nil)
    ReadSections.withSetUpUnderWay {
      // A new thread takes a record now, as a handler interrupting the set-up would.
      ReclamationPromiseTests.onThread {
        _ = Associations(of: host)[SignalCanaryKey.self]
        fencesFully.withLock { $0 = ReadSections.currentThreadFencesFully }
      }.wait()
    }
    #expect(fencesFully.withLock { $0 } == true)
  }

  #if os(Linux) && canImport(Glibc)
    // The weak path's reads take a lock, which a handler cannot take over its own thread.
    @Test(.disabled(if: HostMode.isWeak, "weak-path reads lock: not async-signal-safe"))
    func aSignalHandlerThatReadsLeavesTheInterruptedReadProtected() throws {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        // Runs inside whatever the reader was doing, often inside its own read section.
        if let canary = Associations(of: signalHost)[SignalCanaryKey.self], !canary.isIntact {
          signalDeadReads.add(1, ordering: .relaxed)
        }
      }
      action.sa_flags = SA_RESTART
      var previous = sigaction()
      try #require(sigaction(SIGUSR2, &action, &previous) == 0)
      defer { _ = sigaction(SIGUSR2, &previous, nil) }

      let stop = Flag()
      let readerThread = Locked<pthread_t?>(nil)
      let deadReads = Counter()
      Associations(of: signalHost)[SignalCanaryKey.self] = SignalCanary()
      let reader = ReclamationPromiseTests.onThread {
        readerThread.withLock { $0 = pthread_self() }
        while !stop.isSet {
          if let canary = Associations(of: signalHost)[SignalCanaryKey.self], !canary.isIntact {
            deadReads.increment()
          }
        }
      }
      let writer = ReclamationPromiseTests.onThread {
        while !stop.isSet {
          Associations(of: signalHost)[SignalCanaryKey.self] = SignalCanary()
        }
      }
      while readerThread.withLock({ $0 }) == nil { yieldThread() }
      let target = readerThread.withLock { $0! }
      for _ in 0..<scaled(20_000) {
        _ = pthread_kill(target, SIGUSR2)
        yieldThread()
      }
      stop.set()
      reader.wait()
      writer.wait()
      #expect(deadReads.value == 0)
      #expect(signalDeadReads.load(ordering: .relaxed) == 0)
    }

    /// What the child of the fork does; returns whether it all worked.
    ///
    /// Called once before the fork too: the Swift runtime instantiates generic metadata lazily,
    /// under locks that another thread of the parent may hold at the fork, so a child may only
    /// use what its parent already used. That is the runtime's rule, not the core's.
    static func readWriteAndSweep(_ host: Host) -> Bool {
      let before = Associations(of: host)[SignalCanaryKey.self]
      Associations(of: host)[SignalCanaryKey.self] = SignalCanary()
      let after = Associations(of: host)[SignalCanaryKey.self]
      AssociationTable.sweep()
      let other = Host()
      Associations(of: other)[SignalCanaryKey.self] = SignalCanary()
      AssociationTable.sweep()
      return before?.isIntact == true && after?.isIntact == true
        && Associations(of: other)[SignalCanaryKey.self] != nil
    }

    @Test(.disabled(if: threadSanitizerIsActive, "the sanitizer's child of a fork hangs"))
    func theChildOfAForkReadsWritesAndSweeps() throws {
      let host = Host()
      Associations(of: host)[SignalCanaryKey.self] = SignalCanary()
      #expect(Self.readWriteAndSweep(host))
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
              Associations(of: written)[SignalCanaryKey.self] = SignalCanary()
            } else {
              _ = Associations(of: host)[SignalCanaryKey.self]
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
      var status: Int32 = 0
      let deadline = ContinuousClock.now + .seconds(30)
      var finished = false
      while ContinuousClock.now < deadline {
        if waitpid(child, &status, WNOHANG) == child {
          finished = true
          break
        }
        usleep(10_000)
      }
      if !finished {
        kill(child, SIGKILL)
        _ = waitpid(child, &status, 0)
      }
      #expect(finished, "the child of the fork hung")
      let exitedNormally = status & 0x7f == 0
      #expect(exitedNormally && (status >> 8) & 0xff == 0, "child status \(status)")
    }

    /// What the child does with the process-wide locks: attach, report a diagnostic, a key's
    /// first diagnostic, a hooked host's life; returns whether it all worked.
    static func attachReportAndHook() -> Bool {
      let host = Host()
      Associations(of: host).attach(ForkMarker())
      let attached = Associations(of: host).capability(ForkMarker.self) != nil
      let reports = Atomic<Int>(0)
      Diagnostics.setHandler { _ in reports.add(1, ordering: .relaxed) }
      Diagnostics.report("fork", "from the child")
      Diagnostics.setHandler(nil)
      _ = Associations(of: host)[WeakPolicyOnAValue.self]
      do {
        let hooked = HookedHost()
        Associations(of: hooked)[SignalCanaryKey.self] = SignalCanary()
      }
      AssociationTable.sweep()
      return attached && reports.load(ordering: .relaxed) == 1
    }

    @Test(.disabled(if: threadSanitizerIsActive, "the sanitizer's child of a fork hangs"))
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
              _ = Associations(of: host).detach(ForkMarker.self)
            case 1:
              _ = Associations(of: host)[WeakPolicyOnAValue.self]
              let hooked = HookedHost()
              Associations(of: hooked)[SignalCanaryKey.self] = SignalCanary()
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

    /// Waits up to ten seconds for `child`, killing it past that; says how it ended.
    static func waitForChild(_ child: pid_t) -> String {
      var status: Int32 = 0
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if waitpid(child, &status, WNOHANG) == child {
          return status & 0x7f == 0 ? "exited \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
        }
        usleep(1_000)
      }
      kill(child, SIGKILL)
      _ = waitpid(child, &status, 0)
      return "hung"
    }
  #endif
}

/// A value whose contents tell whether it is still alive when read.
final class SignalCanary: Sendable {
  static let alive: UInt64 = 0x5157_4E41_4C00_0001
  let word = Atomic<UInt64>(SignalCanary.alive)

  deinit { word.store(0xDEAD, ordering: .relaxed) }

  var isIntact: Bool { word.load(ordering: .relaxed) == SignalCanary.alive }
}

enum SignalCanaryKey: AssociatedKey { typealias Value = SignalCanary? }

/// A capability for the fork tests.
final class ForkMarker: Capability {}

/// A key whose every use takes the lock of the keys reported once: a weak policy on a value.
enum WeakPolicyOnAValue: AssociatedKey {
  typealias Value = Int?
  static let policy = AssociationPolicy.weak
}

/// The host a signal handler reads: a handler can reach only globals.
let signalHost = Host()

/// Dead values that a signal handler read.
let signalDeadReads = Atomic<Int>(0)
