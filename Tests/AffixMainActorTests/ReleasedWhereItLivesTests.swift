import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

// What the library keeps for an isolation is released there, whoever drops the last reference.
// Each witness below is non-`Sendable` state of its owner's isolation: its `deinit` records
// where it ran and bumps a tally that the owner bumps too, with no lock, as user code would.
// Counted, not left to the thread sanitizer: Swift brackets every `deinit` with
// `__tsan_ignore_thread_begin`/`end`, so a race inside one is never reported.

/// Where the witnesses' `deinit`s ran.
final class ReleaseLedger: Sendable {
  let onOwner = Counter()
  let offOwner = Counter()
  var total: Int { onOwner.value + offOwner.value }
}

/// State of the owner's isolation, not `Sendable`: bumped by the owner and by the `deinit`s.
final class Tally {
  var count = 0
}

/// A non-`Sendable` object whose `deinit` records whether it ran in its owner's isolation.
final class Witness {
  let tally: Tally
  let ledger: ReleaseLedger
  let isOwner: @Sendable () -> Bool

  init(tally: Tally, ledger: ReleaseLedger, isOwner: @escaping @Sendable () -> Bool) {
    self.tally = tally
    self.ledger = ledger
    self.isOwner = isOwner
  }

  deinit {
    if isOwner() { ledger.onOwner.increment() } else { ledger.offOwner.increment() }
    tally.count += 1
  }
}

/// What the library holds for the owner, each capturing a witness.
enum Holder: String, CaseIterable, Sendable {
  /// An `IsolationBound` around the witness.
  case bound
  /// An `IsolatedCallback` whose closure captured the witness.
  case callback
  /// An observer whose closure captured the witness, with its token.
  case observer
  /// A value of a host that dies: an `IsolationBound` around the witness, stored on the host.
  case hostValue
  /// Work recorded for a moment of a host that dies before reaching it, capturing the witness.
  case momentWork
}

/// The moment the witnesses' hosts never reach.
enum NeverReached: HostMoment {}

/// Where the last reference goes.
enum Dropper: String, CaseIterable, Sendable {
  case detachedTask
  case otherActor
  case frameThread
  case valueDeinit
  /// The background sweeper, after the host that holds them dies.
  case sweeper
}

/// A host whose values the sweeper releases once it dies.
final class ReleaseHost: Sendable {}

enum HeldKey: AssociatedKey {
  typealias Value = Held?
  static var defaultValue: Held? { nil }
}

enum EnvelopeKey: AssociatedKey {
  typealias Value = Envelope?
  static var defaultValue: Envelope? { nil }
}

enum WatchedKey: AssociatedKey {
  typealias Value = Int
  static var defaultValue: Int { 0 }
}

/// The holders of a run, dropped together by whoever drops the last reference.
final class Held: Sendable {
  private let items = Mutex<[any Sendable]>([])

  func add(_ item: any Sendable) {
    items.withLock { $0.append(item) }
  }

  /// Drops every holder, after unlocking.
  func drop() {
    let taken = items.withLock { items in
      defer { items = [] }
      return items
    }
    _ = consume taken
  }
}

/// Drops the holders in its `deinit`: a value's `deinit` as the place of the last release.
final class Envelope: Sendable {
  let held: Held
  init(_ held: Held) { self.held = held }
  deinit { held.drop() }
}

actor OtherActor {
  func drop(_ held: Held) { held.drop() }
}

/// A Dispatch queue as an executor, so that a `deinit` can tell that it runs there.
final class QueueExecutor: SerialExecutor {
  let queue: DispatchQueue
  static let key = DispatchSpecificKey<ObjectIdentifier>()

  init() {
    queue = DispatchQueue(label: "affix.tests.owner")
    queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  /// Whether the caller runs on this executor's queue.
  var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }
}

/// An actor on a queue of its own.
actor QueueOwner {
  let executor = QueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

/// What a run found.
struct ReleaseOutcome: Sendable {
  var onOwner = 0
  var offOwner = 0
  var lostUpdates = 0
  var finished = false
}

let witnessCount = 200

/// Makes `witnessCount` witnesses in `isolation`, holds them in `holder`, has `dropper` drop the
/// last references, and bumps the tally in `isolation` until every `deinit` has run.
func releaseRun(
  _ holder: Holder, _ dropper: Dropper, isOwner: @escaping @Sendable () -> Bool,
  isolation: isolated any Actor
) async -> ReleaseOutcome {
  let tally = Tally()
  let ledger = ReleaseLedger()
  let held = Held()
  var hosts: [ReleaseHost] = []
  for index in 0..<witnessCount {
    let witness = Witness(tally: tally, ledger: ledger, isOwner: isOwner)
    switch holder {
    case .bound:
      held.add(IsolationBound(witness, isolation: isolation))
    case .callback:
      held.add(
        IsolatedCallback<Int>(isolation: isolation) { [witness] in
          if $0 < 0 { _ = witness }
        })
    case .observer:
      let host = ReleaseHost()
      let token = Associations(of: host).observe(WatchedKey.self, isolation: isolation) {
        [witness] in
        if $0 < 0 { _ = witness }
      }
      Associations(of: host)[WatchedKey.self] = index
      hosts.append(host)
      held.add(token)
    case .momentWork:
      let host = ReleaseHost()
      Associations(of: host).whenReached(NeverReached.self, isolation: isolation) { [witness] in
        _ = witness
      }
      hosts.append(host)
    case .hostValue:
      let host = ReleaseHost()
      let item = Held()
      item.add(IsolationBound(witness, isolation: isolation))
      Associations(of: host)[HeldKey.self] = item
      hosts.append(host)
    }
  }
  // The hosts go with the holders: their values, and observers, to the sweeper.
  for host in hosts { held.add(host) }
  hosts = []

  var frameToken: CancellationToken?
  switch dropper {
  case .detachedTask:
    Task.detached { held.drop() }
  case .otherActor:
    let other = OtherActor()
    Task.detached { await other.drop(held) }
  case .frameThread:
    let frames = VirtualFrames(framesPerSecond: 60)
    frameToken = frames.source.subscribe { _ in held.drop() }
    Task.detached { frames.frames(2) }
  case .valueDeinit:
    let envelope = Envelope(held)
    Task.detached { _ = consume envelope }
  case .sweeper:
    // Kept by a host that dies now, off the owner: the sweeper releases its value, whose
    // `deinit` drops the holders on the sweeper's thread.
    let keeper = ReleaseHost()
    Associations(of: keeper)[EnvelopeKey.self] = Envelope(held)
    Task.detached { _ = consume keeper }
  }

  var bumps = 0
  let deadline = ContinuousClock.now + .seconds(20)
  while ledger.total < witnessCount, ContinuousClock.now < deadline {
    for _ in 0..<200 {
      tally.count += 1
      bumps += 1
    }
    await Task.yield()
  }
  frameToken?.cancel()
  return ReleaseOutcome(
    onOwner: ledger.onOwner.value, offOwner: ledger.offOwner.value,
    lostUpdates: bumps + ledger.total - tally.count, finished: ledger.total == witnessCount)
}

@Suite struct ReleasedWhereItLivesTests {
  @MainActor @Test(arguments: Holder.allCases, Dropper.allCases)
  func onTheMainActor(_ holder: Holder, _ dropper: Dropper) async {
    let outcome = await releaseRun(
      holder, dropper, isOwner: { isOnMainQueue() }, isolation: MainActor.shared)
    #expect(outcome.finished, "not every witness was released: \(outcome)")
    #expect(outcome.offOwner == 0, "deinits ran off the main queue")
    #expect(outcome.onOwner == witnessCount)
    #expect(outcome.lostUpdates == 0)
  }

  @Test(arguments: Holder.allCases, Dropper.allCases)
  func onAnActor(_ holder: Holder, _ dropper: Dropper) async {
    let owner = QueueOwner()
    let executor = owner.executor
    let outcome = await releaseRun(
      holder, dropper, isOwner: { executor.isCurrent }, isolation: owner)
    #expect(outcome.finished, "not every witness was released: \(outcome)")
    #expect(outcome.offOwner == 0, "deinits ran off the owner's queue")
    #expect(outcome.onOwner == witnessCount)
    #expect(outcome.lostUpdates == 0)
  }

  /// The last release on the owner is the fast path: at once, before the scope's end returns,
  /// nothing handed over (a hand-over would wait for a later turn of the main queue).
  @MainActor @Test func aValueDroppedOnItsOwnerGoesAtOnce() {
    let ledger = ReleaseLedger()
    do {
      let bound = IsolationBound(Witness(tally: Tally(), ledger: ledger) { isOnMainQueue() })
      let callback = IsolatedCallback<Int> { [bound] _ in _ = bound }
      _ = callback
    }
    #expect(ledger.onOwner.value == 1)
  }

  /// The same on an actor of its own: the runtime tells the holder that it runs there.
  @Test func aValueDroppedOnItsActorGoesAtOnce() async {
    let owner = QueueOwner()
    let executor = owner.executor
    #expect(await releasedAtOnce(isOwner: { executor.isCurrent }, isolation: owner) == 1)
  }
}

/// Makes a bound value and a callback in `isolation`, drops them there, and returns how many
/// witnesses were released on the owner before returning.
func releasedAtOnce(
  isOwner: @escaping @Sendable () -> Bool, isolation: isolated any Actor
) -> Int {
  let ledger = ReleaseLedger()
  do {
    let bound = IsolationBound(
      Witness(tally: Tally(), ledger: ledger, isOwner: isOwner), isolation: isolation)
    let callback = IsolatedCallback<Int>(isolation: isolation) { [bound] _ in _ = bound }
    _ = callback
  }
  return ledger.onOwner.value
}

/// The main queue held by a block that waits: an owner that does not run.
@Suite struct AnOwnerThatDoesNotRunTests {
  @Test func releasesWaitAndNothingRunsOffTheOwner() async {
    let ledger = ReleaseLedger()
    var made: [IsolationBound<Witness>]? = await MainActor.run { () -> [IsolationBound<Witness>] in
      let tally = Tally()
      return (0..<50).map { _ in
        IsolationBound(Witness(tally: tally, ledger: ledger) { isOnMainQueue() })
      }
    }
    let gate = DispatchSemaphore(value: 0)
    let held = Flag()
    DispatchQueue.main.async {
      held.set()
      gate.wait()
    }
    // Kept until the main queue is held: an optimized build may otherwise release the array
    // before, and its hand-over runs on the main queue before the block that holds it.
    withExtendedLifetime(made) { #expect(blockingEventually { held.isSet }) }
    made = nil
    // Dropped here, off the main queue, while the main queue runs nothing: every release
    // waits, with its memory, and none runs here.
    #expect(ledger.total == 0)
    #expect(OwnerRelease.backlog.now >= 50)
    gate.signal()
    #expect(await eventually { ledger.total == 50 })
    #expect(ledger.offOwner.value == 0)
  }
}
