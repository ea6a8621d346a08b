internal import AffixRuntimeShims
import Dispatch
import Synchronization

/// Objects that writers replaced or removed, waiting for a grace period before the storage's
/// reference to each is released.
///
/// A reader without a lock may have loaded such an object's address a moment before the writer
/// took it out (see `AssociationStorage.retainedPayloadBits(for:)`), so the reference goes
/// only once every read section that began before the retirement has ended
/// (`affix_synchronize`).
///
/// **Where the `deinit`s run.** References retired on the main queue (the main actor's
/// executor, on whichever thread runs it: a Linux `async` program and Swift Testing run it on
/// a Dispatch thread) are released on the main queue: by a main-queue block after the grace
/// period, or by the retiring block itself when it retires past the bound below; UIKit objects
/// must go there. References retired anywhere else are released on a Dispatch thread of
/// utility quality, or, past the bound, by the retiring thread itself, as Objective-C's
/// associated objects always do.
///
/// **Memory is bounded.** Retirements go into ``shardCount`` shards, those on the main queue
/// into shard 0 and every other thread's into one of the rest, chosen in turn as threads first
/// retire, so that writers on different threads take different locks. A shard holds at most
/// ``shardLimit`` references: the retirement that fills it releases the shard's other
/// references on its own thread after a grace period (never the one it retired itself),
/// unless that thread is already releasing retired objects or is inside a read section (user
/// code that a read ran), whose retirements the next release takes. A release takes at most what the shards held, so retired objects not
/// yet released number at most `2 × shardCount × shardLimit`, plus `shardLimit` for each
/// thread releasing its own shard, whatever the write rate and however slow the `deinit`s.
@usableFromInline
enum Retirement {
  /// Shards of retired references: 0 for the main queue, the rest for other threads.
  static let shardCount = 8

  /// The most references a shard holds before its next retirement releases them on the
  /// retiring thread.
  static let shardLimit = 4_096

  // `@unchecked Sendable`: the references are reached only under `lock`.
  final class Shard: @unchecked Sendable {
    let lock = SpinLock()
    /// Retained addresses of retired objects, each the storage's reference.
    @exclusivity(unchecked) var references: [UInt] = []
    /// For shard 0: batches whose grace period has passed, waiting for the main queue.
    @exclusivity(unchecked) var ready: [UInt] = []
    /// Whether a block of the main queue will release `ready`.
    @exclusivity(unchecked) var mainReleaseScheduled = false
    // Keeps the hot fields of two shards off one cache line.
    private let padding: (UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt) = (0, 0, 0, 0, 0, 0, 0, 0)

    init() {
      ProcessLocks.join(
        .retirementShard, lock: { self.lock.lock() }, unlock: { self.lock.unlock() },
        reinitialize: { self.lock.reinitializeInChildOfFork() })
    }

    @inline(__always)
    func withLock<Result>(_ body: (Shard) -> Result) -> Result {
      lock.lock()
      defer { lock.unlock() }
      return body(self)
    }
  }

  static let shards: [Shard] = (0..<shardCount).map { _ in Shard() }

  /// Whether a drain is scheduled on a Dispatch thread.
  private static let drainScheduled = Atomic<Bool>(false)

  /// Queues the storage's reference to an object that a writer took out of an entry, to be
  /// released once no reader can still be retaining it. Call with no lock held, after the
  /// writer's last use of the object: the reference is then the object's last but readers'.
  static func retire(_ bits: UInt) {
    let shard = shards[currentShardIndex]
    let mayRelease = !affix_is_releasing() && !affix_inside_read_section()
    // One critical section decides and takes, so that what this thread releases past the
    // bound never includes the reference it retires now, whoever shares the shard.
    let taken = shard.withLock { shard -> (references: [UInt], ready: [UInt], ticket: Int)? in
      if mayRelease, shard.references.count + shard.ready.count >= shardLimit - 1 {
        defer {
          shard.references = [bits]
          shard.ready = []
        }
        // Counted as under way before the take, so that a sweep that finds the shard empty
        // after it waits for this release (see `ReleaseQueue.releaseAllAndWait()`).
        return (shard.references, shard.ready, ReleaseQueue.beginRelease())
      }
      shard.references.append(bits)
      return nil
    }
    if let taken {
      let ticket = taken.ticket
      synchronize()
      release(taken.ready)
      release(taken.references)
      ReleaseQueue.endRelease(ticket)
    }
    scheduleDrain()
  }

  /// Retires the reference a payload holds, if it holds an object; see ``retire(_:)``.
  @usableFromInline
  static func retire(_ payload: consuming Payload?) {
    // No reference of this function's own may outlive the retirement: its release could be
    // the object's last, here on the writer's thread.
    guard let bits = payload?.retainedObjectBits() else { return }
    payload = nil
    retire(bits)
  }

  /// Releases every shard's references on a Dispatch thread a millisecond from now, unless a
  /// drain is scheduled or running: one at a time, so that slow deinits never take more than
  /// one Dispatch thread.
  static func scheduleDrain() {
    // Dispatch does not work in the child of a fork: retirements there wait for the bound or
    // a sweep.
    guard !ForkHandlers.isChild, !drainScheduled.load(ordering: .relaxed),
      drainScheduled.compareExchange(expected: false, desired: true, ordering: .acquiring)
        .exchanged
    else { return }
    scheduleDrainBlock()
  }

  /// A millisecond later, so that one grace period (a `membarrier`, which interrupts every
  /// running thread of the process) serves every retirement of that millisecond.
  private static func scheduleDrainBlock() {
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(1)) {
      runDrain()
    }
  }

  /// Drains once, then lets the next retirement schedule a drain, or schedules the next itself
  /// if the shards filled meanwhile: a block at a time, so that other work on Dispatch's
  /// threads (the release of dead hosts' values) is never starved by a stream of writes. A
  /// retirement that found the flag still set scheduled nothing; its shard's lock orders its
  /// append before this look, or this clearing before its look at the flag, so it is never
  /// left behind.
  private static func runDrain() {
    drain(includingMain: false)
    drainScheduled.store(false, ordering: .sequentiallyConsistent)
    let left = shards.contains { shard in shard.withLock { !$0.references.isEmpty } }
    guard left,
      drainScheduled.compareExchange(expected: false, desired: true, ordering: .acquiring)
        .exchanged
    else { return }
    scheduleDrainBlock()
  }

  /// Takes what every shard holds, waits for one grace period, and releases it on this thread;
  /// the main queue's references too when `includingMain` (the caller runs on the main
  /// queue), otherwise they go to the main queue. Calls `afterTaking` once the shards are
  /// taken, before the grace period and the releases. Returns whether anything was taken.
  @discardableResult
  static func drain(includingMain: Bool, afterTaking: () -> Void = {}) -> Bool {
    guard !affix_inside_read_section() else {
      // User code that a read ran (see `synchronize()`): a grace period here would wait for
      // this very thread.
      afterTaking()
      scheduleDrain()
      return false
    }
    // Counted as under way before the take: a sweep that finds the shards empty after it
    // waits for this release (see `ReleaseQueue.releaseAllAndWait()`).
    let ticket = ReleaseQueue.beginRelease()
    var taken: [UInt] = []
    for index in 1..<shardCount {
      shards[index].withLock { shard in
        taken.append(contentsOf: shard.references)
        shard.references = []
      }
    }
    let main = shards[0].withLock { shard in
      defer { shard.references = [] }
      return shard.references
    }
    afterTaking()
    guard !taken.isEmpty || !main.isEmpty else {
      ReleaseQueue.endRelease(ticket)
      if includingMain { releaseMainReady() }
      return false
    }
    synchronize()
    if !main.isEmpty {
      if includingMain {
        release(main)
      } else {
        handToMainQueue(main)
      }
    }
    release(taken)
    ReleaseQueue.endRelease(ticket)
    if includingMain { releaseMainReady() }
    return true
  }

  /// Keeps the main queue's references, whose grace period has passed, for the main queue.
  private static func handToMainQueue(_ references: [UInt]) {
    let schedules = shards[0].withLock { shard in
      shard.ready.append(contentsOf: references)
      defer { shard.mainReleaseScheduled = true }
      return !shard.mainReleaseScheduled
    }
    guard schedules, !ForkHandlers.isChild else { return }
    DispatchQueue.main.async { releaseMainReady() }
  }

  /// Releases the main queue's references whose grace period has passed; on the main queue.
  static func releaseMainReady() {
    let ready = shards[0].withLock { shard in
      shard.mainReleaseScheduled = false
      defer { shard.ready = [] }
      return shard.ready
    }
    release(ready)
  }

  /// The shard the caller retires into: 0 on the main queue, asked per retirement (a thread
  /// may run the main queue now and other queues later), otherwise the thread's own.
  private static var currentShardIndex: Int {
    MainQueue.isCurrent ? 0 : Int(affix_retire_shard(UInt32(shardCount)))
  }

  /// Waits for a grace period. Never inside a read section, which it would wait for: callers
  /// check `affix_inside_read_section()` first.
  private static func synchronize() {
    assert(!affix_inside_read_section(), "a grace period inside a read section")
    let error = affix_synchronize()
    if error != 0 {
      Diagnostics.report(
        subsystem: "associations",
        message:
          "membarrier failed (errno \(error)); the grace period used the slower global barrier")
    }
  }

  private static func release(_ references: [UInt]) {
    guard !references.isEmpty else { return }
    affix_release_begin()
    defer { affix_release_end() }
    for bits in references {
      // Retired references are retained object addresses, never 0.
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        .release()
    }
  }

  // MARK: fork

  /// In the child of a fork: no drain and no main-queue block will run there.
  static func resetInChild() {
    drainScheduled.store(false, ordering: .relaxed)
    shards[0].withLock { $0.mainReleaseScheduled = false }
  }
}
