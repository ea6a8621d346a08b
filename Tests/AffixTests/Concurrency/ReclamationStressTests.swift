import Affix
import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Object reads take no lock: a reader may load the address of an object that a writer is
/// replacing at that moment. These tests hammer exactly that, so that a value released before
/// its reader retained it shows up as a dead value read (`isAlive` false, or a box's contents
/// gone), and as a use after free under the address sanitizer or a race under the thread
/// sanitizer, which CI runs them in. CI runs them again with `AFFIX_READ_FENCE=full`, the
/// fallback that fences on every read.
@Suite struct ReclamationStressTests {
  /// A value whose contents a read checks: poisoned in its deinit, so a read of a released box
  /// that the allocator has not reused yet is caught too.
  final class Canary: Sendable {
    static let alive: UInt64 = 0xC0FF_EE00_C0FF_EE00
    let word = Atomic<UInt64>(Canary.alive)
    let id: Int

    init(_ id: Int) { self.id = id }

    deinit { word.store(0xDEAD, ordering: .relaxed) }

    var isIntact: Bool { word.load(ordering: .relaxed) == Canary.alive }
  }

  enum CanaryKey: AssociatedKey { typealias Value = Canary? }
  enum OwnedCanaryKey: AssociatedKey { typealias Value = Canary? }
  enum WeakCanaryKey: AssociatedKey {
    typealias Value = Canary?
    static var policy: AssociationPolicy { .weak }
  }
  enum CanariesKey: AssociatedKey { typealias Value = [Canary]? }
  enum TextKey: AssociatedKey { typealias Value = String? }
  enum CounterKey: AssociatedKey { static var defaultValue: Int { .min } }
  enum TrackedKey: AssociatedKey { typealias Value = Tracked? }
  enum Other0: AssociatedKey { typealias Value = Canary? }
  enum Other1: AssociatedKey { typealias Value = Canary? }
  enum Other2: AssociatedKey { typealias Value = Canary? }

  /// Sets one of three other keys, so that they take and free the inline entries.
  static func setOther(_ index: Int, on host: Host, to value: Canary?) {
    switch index % 3 {
    case 0: Associations(of: host)[Other0.self] = value
    case 1: Associations(of: host)[Other1.self] = value
    default: Associations(of: host)[Other2.self] = value
    }
  }

  /// `readers` threads of their own read `read`'s way while this thread writes `write`'s way;
  /// returns what the readers reported. Threads of their own: a Dispatch pool may have fewer
  /// threads than readers and a writer together.
  func hammer(
    readers: Int, operations: Int,
    write: (_ index: Int) -> Void,
    read: @escaping @Sendable () -> String?
  ) -> [String] {
    let failures = SanitizerVisibleLock<[String]>([])
    let done = Flag()
    let finished = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    for _ in 0..<readers {
      Thread {
        started.signal()
        var reads = 0
        while !done.isSet || reads < 1_000 {
          if let failure = read() {
            failures.withLock { if $0.count < 10 { $0.append(failure) } }
          }
          reads += 1
        }
        finished.signal()
      }.start()
    }
    for _ in 0..<readers { started.wait() }
    for index in 0..<operations { write(index) }
    done.set()
    for _ in 0..<readers { finished.wait() }
    AssociationTable.sweep()
    return failures.withLock { $0 }
  }

  @Test func objectReadsRacingReplacementsNeverSeeAReleasedObject() {
    let host = Host()
    let key = CanaryKey.self
    // Other keys take the inline entries now and then, so the canary moves between an inline
    // entry and the overflow, and a freed entry is taken by another key.
    Associations(of: host)[key] = Canary(0)
    let failures = hammer(readers: 2, operations: scaled(200_000)) { index in
      if index % 7 == 3 {
        Associations(of: host)[key] = nil
      } else {
        Associations(of: host)[key] = Canary(index)
      }
      Self.setOther(index, on: host, to: index % 3 == 0 ? nil : Canary(-index))
    } read: {
      guard let canary = Associations(of: host)[key] else { return nil }
      return canary.isIntact ? nil : "read a released canary \(canary.id)"
    }
    #expect(failures == [])
  }

  @Test func boxedReadsRacingReplacementsNeverSeeAReleasedBox() {
    let host = Host()
    let key = CanariesKey.self
    let text = TextKey.self
    let failures = hammer(readers: 2, operations: scaled(100_000)) { index in
      Associations(of: host)[key] = index % 5 == 0 ? nil : [Canary(index), Canary(index)]
      // Long enough to live in a heap buffer of its own, which the box's release frees.
      Associations(of: host)[text] = String(repeating: "x", count: 32) + "\(index)"
    } read: {
      if let canaries = Associations(of: host)[key], !canaries.allSatisfy(\.isIntact) {
        return "read a released box"
      }
      if let text = Associations(of: host)[text], !text.hasPrefix(String(repeating: "x", count: 32))
      {
        return "read a released string: \(text.prefix(40))"
      }
      return nil
    }
    #expect(failures == [])
  }

  @Test func weakReadsRacingReplacementsNeverSeeAReleasedBox() {
    let host = Host()
    let key = WeakCanaryKey.self
    let keep = SanitizerVisibleLock<Canary?>(nil)
    let failures = hammer(readers: 2, operations: scaled(100_000)) { index in
      let canary = Canary(index)
      Associations(of: host)[key] = canary
      // The previous canary dies as this one replaces it, while readers may hold it.
      keep.withLock { $0 = canary }
    } read: {
      guard let canary = Associations(of: host)[key] else { return nil }
      return canary.isIntact ? nil : "read a released weak canary \(canary.id)"
    }
    #expect(failures == [])
  }

  @Test func readsOfAnOwnersStorageRacingReplacementsNeverSeeAReleasedObject() {
    final class Owner: AssociationOwner, Sendable {
      let associationStorage = AssociationStorage()
    }
    let owner = Owner()
    let key = OwnedCanaryKey.self
    let failures = hammer(readers: 2, operations: scaled(100_000)) { index in
      Associations(of: owner)[key] = Canary(index)
      if index % 11 == 0 { Associations(of: owner).removeValue(for: key) }
    } read: {
      guard let canary = Associations(of: owner)[key] else { return nil }
      return canary.isIntact ? nil : "read a released owned canary \(canary.id)"
    }
    #expect(failures == [])
  }

  /// Sets of an inline value over one the host has take no lock (they store in place); a
  /// removal racing with them must take each stored value at most once, in the order stored.
  @Test func setsInPlaceRacingRemovalsHandEachValueOutOnce() {
    let host = Host()
    let key = CounterKey.self
    let removed = SanitizerVisibleLock<[Int]>([])
    let done = Flag()
    let finished = DispatchSemaphore(value: 0)
    Associations(of: host)[key] = 0
    Thread {
      var taken: [Int] = []
      while !done.isSet {
        if let value = Associations(of: host).removeValue(for: key).nilIfAbsent {
          taken.append(value)
        }
      }
      if let value = Associations(of: host).removeValue(for: key).nilIfAbsent {
        taken.append(value)
      }
      removed.withLock { $0 = taken }
      finished.signal()
    }.start()
    let count = scaled(200_000)
    for value in 1...count { Associations(of: host)[key] = value }
    done.set()
    finished.wait()
    let taken = removed.withLock { $0 }
    #expect(zip(taken, taken.dropFirst()).allSatisfy { $0 < $1 })
    #expect(taken.last == count)
  }

  @Test func aReplacedValueGoesByTheNextSweepWhoeverReplacedIt() {
    let host = Host()
    let key = TrackedKey.self
    let lifetimes = Lifetimes()
    Associations(of: host)[key] = lifetimes.make(1)
    let finished = DispatchSemaphore(value: 0)
    Thread {
      Associations(of: host)[key] = nil
      finished.signal()
    }.start()
    finished.wait()
    AssociationTable.sweep()
    #expect(lifetimes.alive == 0)
  }

  @Test func threadsThatExitGiveTheirReaderRecordsBack() {
    let host = Host()
    let key = TrackedKey.self
    Associations(of: host)[key] = Tracked(1)
    let before = ReadSections.readerRecords.total
    for _ in 0..<50 {
      let done = DispatchSemaphore(value: 0)
      nonisolated(unsafe) let thread = Thread {
        _ = Associations(of: host)[key]
        done.signal()
      }
      thread.start()
      done.wait()
      // Gone once its thread-specific data is destroyed, a moment after its block returns.
      while !thread.isFinished { usleep(100) }
      usleep(1_000)
    }
    // One thread at a time read: each took the record the previous one gave back, or a new
    // one while Dispatch's threads held some.
    #expect(ReadSections.readerRecords.total <= before + 4)
  }

  @Test func theFenceIsTheOneTheEnvironmentAsksFor() {
    // The variable is heard only with the TestSeams trait.
    #if TestSeams
      let asksForFull = getenvString("AFFIX_READ_FENCE") == "full"
    #else
      let asksForFull = false
    #endif
    #if os(Linux)
      // This machine's kernel supports `membarrier`; a container that denies it would make the
      // library fall back, which this test would report.
      #expect(ReadSections.useAsymmetricFence == !asksForFull)
    #else
      #expect(ReadSections.useAsymmetricFence == false)
    #endif
  }
}
