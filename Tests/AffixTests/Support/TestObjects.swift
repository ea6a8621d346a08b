import Affix
import AffixTestSupport
import Foundation
import Synchronization

/// A plain host. `Sendable` so that concurrent tests can share one.
final class Host: Sendable {}

/// A host whose equality and hashing trap: the storage must identify hosts by identity alone.
final class TrappingHost: Hashable, Sendable {
  static func == (lhs: TrappingHost, rhs: TrappingHost) -> Bool {
    fatalError("the storage compared two hosts with ==")
  }

  func hash(into hasher: inout Hasher) {
    fatalError("the storage hashed a host")
  }
}

/// A host that owns its storage.
final class OwningHost: AssociationOwner, Sendable {
  let associationStorage = AssociationStorage()
}

/// Counts the `Tracked` values made and released under it, so that a test can tell its own
/// values apart from those of tests running in parallel.
final class Lifetimes: Sendable {
  private let madeCount = Atomic<Int>(0)
  private let releasedCount = Atomic<Int>(0)

  func make(_ id: Int = 0, onDeinit: @escaping @Sendable () -> Void = {}) -> Tracked {
    madeCount.add(1, ordering: .relaxed)
    return Tracked(id) { [self] in
      releasedCount.add(1, ordering: .relaxed)
      onDeinit()
    }
  }

  var made: Int { madeCount.load(ordering: .relaxed) }
  var released: Int { releasedCount.load(ordering: .relaxed) }
  var alive: Int { made - released }
}

/// A value that reports its deinit and knows whether it is still alive, so that a reader can
/// check it was handed a retained value.
final class Tracked: Sendable {
  let id: Int
  let onDeinit: @Sendable () -> Void
  private let aliveFlag = Atomic<Bool>(true)

  init(_ id: Int = 0, onDeinit: @escaping @Sendable () -> Void = {}) {
    self.id = id
    self.onDeinit = onDeinit
  }

  var isAlive: Bool { aliveFlag.load(ordering: .acquiring) }

  deinit {
    aliveFlag.store(false, ordering: .releasing)
    onDeinit()
  }
}

/// A capability that counts how often it is detached and reports its deinit.
final class Recorder: Capability {
  let id: Int
  private let detachCount = Atomic<Int>(0)
  let onDeinit: @Sendable () -> Void

  init(_ id: Int = 0, onDeinit: @escaping @Sendable () -> Void = {}) {
    self.id = id
    self.onDeinit = onDeinit
  }

  var detachments: Int { detachCount.load(ordering: .relaxed) }

  func didEnd(_ ending: CapabilityEnding) {
    detachCount.add(1, ordering: .relaxed)
  }

  deinit { onDeinit() }
}

/// A second capability type, to check that types are kept apart.
final class Marker: Capability {
  func didEnd(_ ending: CapabilityEnding) {}
}

/// SplitMix64: a tiny, fast generator whose sequence depends only on its seed.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// How many operations the long tests run: the full count, divided by `AFFIX_STRESS_SCALE`
/// when it is set (CI sets it under the thread sanitizer, which is many times slower).
func scaled(_ count: Int) -> Int {
  guard let text = getenvString("AFFIX_STRESS_SCALE"), let divisor = Int(text), divisor > 1 else {
    return count
  }
  return max(count / divisor, 1)
}

/// A set of ids that deinits on any thread remove themselves from.
final class IDSet: Sendable {
  private let ids = SanitizerVisibleLock<Set<Int>>([])

  func insert(_ id: Int) {
    _ = ids.withLock { $0.insert(id) }
  }

  func remove(_ id: Int) {
    _ = ids.withLock { $0.remove(id) }
  }

  var values: Set<Int> { ids.withLock { $0 } }
}

/// Sweeps, then tells whether `condition` holds, sweeping again (yielding in between) a bounded
/// number of times while it does not.
///
/// A sweep waits for any sweep in progress to finish releasing, so one is usually enough; the
/// loop keeps tests robust against hosts that die on another thread a moment later.
func sweepUntil(_ condition: () -> Bool) -> Bool {
  for _ in 0..<10_000 {
    AssociationTable.sweep()
    if condition() { return true }
    yieldThread()
  }
  return condition()
}
