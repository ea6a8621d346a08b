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

/// Read sections nest, so that a signal handler (or user code a read runs) may read; their
/// set-up never waits for itself. Serialized: a signal's handler is the process's.
@Suite(.serialized) struct ReadSectionTests {
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

  // The set-up held under way is a test switch, compiled in with the TestSeams trait.
  #if TestSeams
    @Test func aFirstReadDuringTheSetUpNeitherWaitsNorSkipsTheFence() {
      let host = Host()
      Associations(of: host)[SignalCanaryKey.self] = SignalCanary()
      let fencesFully = SanitizerVisibleLock<Bool?>(nil)
      ReadSections.withSetUpUnderWay {
        // A new thread takes a record now, as a handler interrupting the set-up would.
        ReclamationPromiseTests.onThread {
          _ = Associations(of: host)[SignalCanaryKey.self]
          fencesFully.withLock { $0 = ReadSections.currentThreadFencesFully }
        }.wait()
      }
      #expect(fencesFully.withLock { $0 } == true)
    }
  #endif

  #if os(Linux) && canImport(Glibc)
    /// Installs `handler` for SIGUSR2 while `body` runs.
    static func withSIGUSR2(
      _ handler: @convention(c) (Int32) -> Void, run body: () async throws -> Void
    ) async throws {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = handler
      action.sa_flags = SA_RESTART
      var previous = sigaction()
      try #require(sigaction(SIGUSR2, &action, &previous) == 0)
      defer { _ = sigaction(SIGUSR2, &previous, nil) }
      try await body()
    }

    /// Starts a thread that takes SIGUSR2 (a test's threads inherit Dispatch's mask, which
    /// blocks it), runs `setUp`, then `loop` until `stop`; returns the thread once it loops.
    static func signalledThread(
      stop: Flag, setUp: @escaping @Sendable () -> Void = {},
      loop: @escaping @Sendable () -> Void
    ) -> (thread: pthread_t, done: DispatchSemaphore) {
      let started = SanitizerVisibleLock<pthread_t?>(nil)
      let done = ReclamationPromiseTests.onThread {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR2)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        setUp()
        started.withLock { $0 = pthread_self() }
        while !stop.isSet { loop() }
      }
      while started.withLock({ $0 }) == nil { yieldThread() }
      return (started.withLock { $0! }, done)
    }

    /// How many times a test's handler must have run: hundreds, so that the test proves
    /// something of the code the signals interrupted. The thread sanitizer defers handlers to
    /// safe points of its own and coalesces the signals that wait (10 runs in 2,000 signals):
    /// there, tens.
    static let handlerRunsWanted = threadSanitizerIsActive ? 20 : 500

    /// Sends SIGUSR2 to `thread`, a yield apart: 20,000 times (scaled), and on until the
    /// handler has run ``handlerRunsWanted`` times and `seen` holds, for at most 30 s or a
    /// million signals.
    /// It lets other tasks have its thread every 64 signals.
    static func signal(_ thread: pthread_t, alsoUntil seen: () -> Bool = { true }) async {
      let deadline = ContinuousClock.now + .seconds(30)
      let minimum = scaled(20_000)
      var sent = 0
      while sent < minimum || signalHandlerRuns.load(ordering: .relaxed) < handlerRunsWanted
        || !seen(),
        sent < 1_000_000, ContinuousClock.now < deadline
      {
        _ = pthread_kill(thread, SIGUSR2)
        yieldThread()
        sent += 1
        if sent % 64 == 0 { await Task.yield() }
      }
    }

    // What Docs/Platforms.md promises a handler ("Signals"): reads of a host on the pinned
    // path, on a thread that has read before, of keys already used, releasing nothing that
    // could be a value's last reference. The weak path's reads take a lock.
    @Test(.disabled(if: HostMode.isWeak, "weak-path reads lock: not async-signal-safe"))
    func aSignalHandlerThatReadsLeavesTheInterruptedReadProtected() async throws {
      Associations(of: signalHost)[SignalCanaryKey.self] = SignalCanary()
      Associations(of: signalHost)[SignalStableKey.self] = signalStableValue
      Associations(of: signalHost)[SignalNumberKey.self] = 7
      signalHandlerRuns.store(0, ordering: .relaxed)
      let stop = Flag()
      let deadReads = Counter()
      try await Self.withSIGUSR2(
        { _ in
          // Runs inside whatever the reader was doing, often inside its own read section: opens
          // and closes one of its own, and drops a reference that is never an object's last.
          if Associations(of: signalHost)[SignalStableKey.self] !== signalStableValue
            || Associations(of: signalHost)[SignalNumberKey.self] != 7
          {
            signalWrongReads.add(1, ordering: .relaxed)
          }
          signalHandlerRuns.add(1, ordering: .relaxed)
        },
        run: {
          let reader = Self.signalledThread(
            stop: stop,
            // A thread's first read sets up its record (`pthread_setspecific`), before any signal.
            setUp: { _ = Associations(of: signalHost)[SignalCanaryKey.self] },
            loop: {
              // A value that a writer's retirement released under a read would be one whose
              // release the canaries recorded while the reader still holds it.
              if let canary = Associations(of: signalHost)[SignalCanaryKey.self],
                canary.wasReleased
              {
                deadReads.increment()
              }
            })
          let writer = ReclamationPromiseTests.onThread {
            while !stop.isSet {
              Associations(of: signalHost)[SignalCanaryKey.self] = SignalCanary()
            }
          }
          await Self.signal(reader.thread)
          stop.set()
          reader.done.wait()
          writer.wait()
        })
      #expect(deadReads.value == 0)
      #expect(signalWrongReads.load(ordering: .relaxed) == 0)
      // A handler that never ran (a blocked signal) would make the rest prove nothing.
      #expect(signalHandlerRuns.load(ordering: .relaxed) >= Self.handlerRunsWanted)
    }

    #if DEBUG
      // What a debug build stops at: a read in a handler that interrupted a write of the core
      // on its thread, which the read would wait for forever (Docs/Platforms.md, "Signals").
      // The handler only asks, as the read's slow path does.
      @Test(.disabled(if: HostMode.isWeak, "the weak path's reads lock and count no writes"))
      func aHandlerThatInterruptsAWriteIsToldItIsInsideOne() async throws {
        signalInsideWrites.store(0, ordering: .relaxed)
        signalHandlerRuns.store(0, ordering: .relaxed)
        let stop = Flag()
        try await Self.withSIGUSR2(
          { _ in
            if ReadSafety.threadIsInsideWrite { signalInsideWrites.add(1, ordering: .relaxed) }
            signalHandlerRuns.add(1, ordering: .relaxed)
          },
          run: {
            let writer = Self.signalledThread(stop: stop) {
              // Storages' writes, and the table's as new hosts arrive and a sweep runs.
              let host = Host()
              for _ in 0..<64 { Associations(of: host)[SignalCanaryKey.self] = SignalCanary() }
              AssociationTable.sweep()
            }
            // Under the thread sanitizer, which defers handlers, 20 runs may all land between
            // writes: signal on until one lands inside, within the same bounds.
            await Self.signal(writer.thread) { signalInsideWrites.load(ordering: .relaxed) > 0 }
            stop.set()
            writer.done.wait()
          })
        #expect(signalHandlerRuns.load(ordering: .relaxed) >= Self.handlerRunsWanted)
        #expect(signalInsideWrites.load(ordering: .relaxed) > 0)
        #expect(!ReadSafety.threadIsInsideWrite)
      }
    #endif
  #endif
}

/// A value that records its release by generation, so that a reader can tell a released one
/// from a live one without trusting a freed block's contents.
final class SignalCanary: Sendable {
  private static let generations = Atomic<Int>(0)
  /// The generation last released in each slot; slot `g % count` holds `g` once `g` is released.
  private static let released = SanitizerVisibleLock<[Int]>(Array(repeating: -1, count: 1 << 16))

  let generation = SignalCanary.generations.add(1, ordering: .relaxed).newValue

  deinit {
    let generation = generation
    Self.released.withLock { $0[generation & 0xFFFF] = generation }
  }

  var wasReleased: Bool {
    let generation = generation
    return Self.released.withLock { $0[generation & 0xFFFF] == generation }
  }
}

enum SignalCanaryKey: AssociatedKey { typealias Value = SignalCanary? }

/// A value set once and never replaced: a handler's reference to it is never its last.
enum SignalStableKey: AssociatedKey { typealias Value = SignalCanary? }
let signalStableValue = SignalCanary()

/// An inline value: a read copies its bits and retains nothing.
enum SignalNumberKey: AssociatedKey { typealias Value = Int? }

/// The host a signal handler reads: a handler can reach only globals.
let signalHost = Host()

/// What the handlers saw.
let signalHandlerRuns = Atomic<Int>(0)
let signalWrongReads = Atomic<Int>(0)
let signalInsideWrites = Atomic<Int>(0)
