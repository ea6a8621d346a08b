internal import AffixRuntimeShims
import Synchronization

/// The shared table from host address to the host's ``AssociationStorage``.
///
/// An open-addressing table with linear probing whose reads take no lock, so reads stay reads,
/// write nothing shared, and scale across cores. Writers take one mutex.
///
/// A read validates the one slot it uses: it loads the slot's address, then its storage, then
/// the address again. A writer that changes a slot's storage first clears the slot's address,
/// so an address that reads the same before and after vouches for the storage between. The
/// address cannot come back to the slot: a host's slot moves only backward (towards its home)
/// while the host lives, and a host that reads its own storage is alive. A version number
/// (a sequence lock) covers the whole table for the careful path, which a read takes when
/// the first pass misses.
///
/// Why an address is a safe key: each storage holds an unowned reference to its host, which
/// keeps the host's memory allocated after its deinit, so no other object can be allocated at
/// that address until the storage is swept. A caller holds its host, so the host's storage
/// cannot be swept under a reader's feet.
///
/// Why the slot arrays are never freed: a reader may still be probing an array that a writer
/// has just replaced; it will discard what it read, but the memory must stay readable. Arrays
/// only grow, so the retired ones together are smaller than the current one.
///
/// The state is static rather than a shared instance so that no reader ever touches a shared
/// reference count.
@usableFromInline
enum HostTable {
  // The reader's three words are initialized statically, so reading them never calls a lazy
  // initializer.

  /// Even while the slots are consistent, odd while a writer changes them, and odd (1) until
  /// the writer's state is first used and publishes the first slots, so that one parity check
  /// also turns careful readers away from a table with no slots yet.
  static let version = Atomic<UInt>(1)

  /// The current slot array, as the bit pattern of a `SlotArray` base pointer; 0 until the
  /// writer's state is first used.
  static let currentSlots = Atomic<UInt>(0)

  /// The current slot array's capacity mask in bytes (times 16, a slot's size), stored after
  /// `currentSlots` and loaded before it, so that a reader's mask never exceeds its array. In
  /// bytes, so that a reader's probe needs no shift.
  static let currentOffsetMask = Atomic<UInt>(0)

  /// The writer's state. Every path that writes or takes the lock goes through here first, so
  /// its initializer publishes the first slots and makes the version even.
  static let writer: Locked<WriterState> = {
    let slots = SlotArray(capacity: 64)
    publish(slots)
    version.store(0, ordering: .releasing)
    return Locked(WriterState(slots: slots), processWide: .hostTableWriter)
  }()

  struct WriterState {
    var slots: SlotArray
    /// Hosts in the table, dead ones included until a sweep takes them off.
    var count = 0
    var sweepCursor = 0
    var retired: [SlotArray] = []
    /// Set while a pass runs. Writes then sweep nothing along: their backward shifts could
    /// move a dead host from ahead of the pass's cursor to behind it.
    var passInProgress = false
    /// Hosts found inside their deinit by a pass, with when a pass first saw them so.
    var lingering: [UInt: ContinuousClock.Instant] = [:]
    /// Lingering hosts reported, once each.
    var reported: Set<UInt> = []
    /// Lingering hosts whose values a pass released past ``deinitGrace``, once each.
    var released: Set<UInt> = []
  }

  /// Held by the one pass at a time. A pass runs no user code, so a wait for it is bounded.
  static let passLock = Locked((), processWide: .hostTablePass)

  /// How many slots a pass sweeps under the lock before it lets readers and writers in.
  static let chunkSize = 4_096

  /// How long a host may stay inside its deinit, as seen by sweeps, before a diagnostic says
  /// so. Its values stay: a slow deinit (closing a file, waiting on a queue) may still read
  /// them, and the runtime's counts cannot tell it from a host that something holds
  /// `unowned` after its deinit (see `SlotArray.host(at:)`), whose values the leak checker
  /// reports instead.
  static let lingerLimit: Duration = .seconds(1)

  /// How long a host may stay inside its deinit, as seen by sweeps, before a sweep releases
  /// its values all the same (see ``AssociationTable/deinitGrace``), in nanoseconds.
  static let deinitGraceNanoseconds = Atomic<Int64>(30_000_000_000)

  /// See ``AssociationTable/deinitGrace``.
  static var deinitGrace: Duration {
    get { .nanoseconds(deinitGraceNanoseconds.load(ordering: .relaxed)) }
    set {
      guard newValue >= .zero else {
        Diagnostics.report(
          subsystem: "associations",
          message: "deinitGrace = \(newValue) is negative; it stays \(deinitGrace)")
        return
      }
      // Nine billion seconds and more saturate: a grace of centuries. (Through a `Double`, a
      // grace may lose a nanosecond to rounding.)
      let nanoseconds = newValue / .nanoseconds(1)
      deinitGraceNanoseconds.store(
        nanoseconds < 9e18 ? Int64(nanoseconds) : .max, ordering: .relaxed)
    }
  }

  /// Readers waiting for a sweep's chunk to end.
  static let waitingReaders = Atomic<Int>(0)

  // MARK: Reading

  /// The address of the storage of `host`, found without taking a lock on the pinned path, or
  /// 0. The caller holds `host`.
  @usableFromInline @_effects(releasenone)
  static func storageBits(of host: AnyObject) -> UInt {
    let address = UInt(bitPattern: ObjectIdentifier(host))
    var waits = false
    defer { if waits { waitingReaders.subtract(1, ordering: .releasing) } }
    for attempt in 0..<4_096 {
      // A writer changes the slots for at most a chunk of a sweep's work: wait it out, and
      // let the sweep know, so that it leaves the slots alone until this read is done, rather
      // than queue for the lock, which the sweep would take again first (a woken thread takes
      // a while to run). The lock stays the last resort.
      if attempt >= 4 {
        if !waits {
          ReadSafety.checkThreadIsNotInsideWrite()
          waits = true
          waitingReaders.add(1, ordering: .relaxed)
        }
        affix_yield()
      }
      let before = version.load(ordering: .acquiring)
      if before & 1 == 0 {
        let offsetMask = currentOffsetMask.load(ordering: .acquiring)
        // An even version means the first slots are published.
        let slots = SlotArray(bits: currentSlots.load(ordering: .acquiring))
        let found = slots.find(address, offsetMask: offsetMask)
        atomicMemoryFence(ordering: .acquiring)
        // A storage found in a consistent snapshot cannot be swept while the caller holds
        // its host.
        if version.load(ordering: .relaxed) == before {
          return found != 0 ? found : weakStorageBits(of: host)
        }
      }
    }
    let found = writer.withLock { $0.slots.find(address) }
    return found != 0 ? found : weakStorageBits(of: host)
  }

  /// The storage of a host on the weak path, or 0; one load when no host ever took that path.
  static func weakStorageBits(of host: AnyObject) -> UInt {
    guard !WeakHostTable.isEmpty, let storage = WeakHostTable.storage(of: host) else { return 0 }
    // The weak table holds the storage while the caller holds the host.
    return UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque())
  }

  // MARK: Writing

  /// The storage of `host`, created if it has none. Also sweeps a few slots, so dead hosts
  /// are found at an amortized O(1) cost per new host; what it sweeps is released on a Dispatch
  /// thread, never on the caller's.
  @usableFromInline
  static func makeStorage(of host: AnyObject) -> AssociationStorage {
    switch HostKind.of(host) {
    case .pinned:
      break
    case .weak:
      let storage = WeakHostTable.makeStorage(of: host)
      BackgroundSweeper.noteHost()
      return storage
    case .unsupported(let reason):
      Diagnostics.report(
        subsystem: "associations",
        message: "a \(type(of: host)) cannot carry associated values: \(reason); "
          + "the value is released at once")
      return AssociationStorage()
    }
    let address = UInt(bitPattern: ObjectIdentifier(host))
    // A host inside its deinit gets no entry: it may not even live on the heap (the optimizer
    // places an object that escapes only from its own deinit on the stack, where no pin can
    // hold its memory), and a value attached now would be released at the next sweep anyway.
    // It gets storage of its own instead, released when the caller is done with it.
    if affix_is_deallocating(Unmanaged.passUnretained(host).toOpaque()) {
      Diagnostics.report(
        subsystem: "associations",
        message:
          "a \(type(of: host)) attached its first value during its deinit; the value is released "
          + "at once, as a host in its deinit can only change the values it already has")
      return AssociationStorage()
    }
    while true {
      var drains = false
      let storage = writer.withLock { state -> AssociationStorage? in
        let existing = state.slots.find(address)
        if existing != 0 {
          // The table holds a reference to every storage it lists.
          return Unmanaged<AssociationStorage>.fromOpaque(
            UnsafeRawPointer(bitPattern: existing)!
          ).takeUnretainedValue()
        }
        // Full: sweep first, then grow on what lives (see `makeRoom()`).
        guard (state.count + 1) * 2 <= state.slots.capacity else { return nil }
        let storage = AssociationStorage(pinning: host, at: address)
        var swept: [Unmanaged<AssociationStorage>] = []
        beginWrite()
        state.slots.insert(address, Unmanaged.passRetained(storage))
        state.count += 1
        if !state.passInProgress {
          sweepIncrementally(&state, slots: 4, into: &swept)
        }
        endWrite()
        drains = ReleaseQueue.enqueue(swept)
        return storage
      }
      if drains { ReleaseQueue.scheduleDrain() }
      if let storage {
        BackgroundSweeper.noteHost()
        return storage
      }
      makeRoom()
    }
  }

  /// Sweeps the whole table, then doubles it while the hosts left still fill half of it, so
  /// that dead hosts never make it grow.
  static func makeRoom() {
    let pass = passLock.whileLocked { () -> Pass in
      // A writer's pass: the values of hosts past their grace are left to the next sweep, as
      // releasing them here would run their capabilities' `didEnd` on the writer's thread.
      let pass = runPass(releasingPast: nil)
      writer.withLock { state in
        while (state.count + 1) * 2 > state.slots.capacity {
          grow(&state)
        }
      }
      return pass
    }
    if pass.drains { ReleaseQueue.scheduleDrain() }
    pass.reportLingeringHosts()
  }

  /// Whether the natively counted object at `address`, whose memory the caller pins, has
  /// begun its deinit and is held by more unowned references than the pins the core knows of
  /// (the table's and ``WeakReference``'s): something refers to it `unowned`, or its deinit is
  /// still running.
  package static func isHeldInDeinit(at address: UnsafeMutableRawPointer) -> Bool {
    guard affix_is_deallocating(address) else { return false }
    let inTable = writer.withLock { $0.slots.find(UInt(bitPattern: address)) != 0 }
    // A running deinit adds one more (the strong references' own), as does each `unowned`.
    let pins = (inTable ? 1 : 0) + ForeignPins.count(at: address)
    return affix_unowned_count(address) > pins
  }

  /// How many hosts of exactly `type` the table holds, dead ones included; for tests. O(*n*).
  static func hostCount(of type: any AnyObject.Type) -> Int {
    writer.withLock { state in
      (0..<state.slots.capacity).count { index in
        state.slots.address(at: index) != 0 && state.slots.hostType(at: index) == type
      }
    }
  }

  /// Counts hosts and entries, telling the dead ones apart. O(*n*).
  static func statistics() -> AssociationTable.Statistics {
    // Counting takes no reference: a storage cannot leave the table while its lock is held,
    // and taking one would make this call, not the sweep, release a storage swept meanwhile.
    var statistics = writer.withLock { state in
      var statistics = AssociationTable.Statistics()
      for index in 0..<state.slots.capacity {
        guard let storage = state.slots.storage(at: index) else { continue }
        let entries = storage._withUnsafeGuaranteedRef { $0.entryCount }
        if state.slots.isDead(at: index) {
          statistics.staleHosts += 1
          statistics.staleEntries += entries
        } else {
          statistics.liveHosts += 1
          statistics.entries += entries
        }
      }
      return statistics
    }
    WeakHostTable.statistics(into: &statistics)
    return statistics
  }

  /// The pinned table's capacity, for tests of its growth.
  package static var capacity: Int {
    writer.withLock { $0.slots.capacity }
  }

  static func beginWrite() { version.beginWrite() }

  static func endWrite() { version.endWrite() }

  /// Makes `slots` the array readers probe: the array first, then its mask, so that a reader
  /// that loads the mask first never probes past the end of the array it loads next. Both with
  /// release, and loaded with acquire: a reader on a weakly ordered CPU that sees either word
  /// sees the array's slots as they were written before it.
  static func publish(_ slots: SlotArray) {
    currentSlots.store(slots.bits, ordering: .releasing)
    currentOffsetMask.store(slots.offsetMask, ordering: .releasing)
  }

  /// Doubles the table. The larger array is filled before the version turns odd, so a careful
  /// reader waits only for the publication, not for the copy.
  static func grow(_ state: inout WriterState) {
    let larger = SlotArray(capacity: state.slots.capacity * 2)
    for index in 0..<state.slots.capacity {
      let address = state.slots.address(at: index)
      if address != 0 {
        larger.insertBits(address, state.slots.storageBits(at: index))
      }
    }
    beginWrite()
    state.retired.append(state.slots)
    state.slots = larger
    state.sweepCursor = 0
    publish(larger)
    endWrite()
  }

  static func sweepIncrementally(
    _ state: inout WriterState, slots: Int, into swept: inout [Unmanaged<AssociationStorage>]
  ) {
    for _ in 0..<slots {
      let index = state.sweepCursor & (state.slots.capacity - 1)
      if let storage = state.slots.deadStorage(at: index) {
        swept.append(storage)
        state.slots.remove(at: index)
        state.count -= 1
      } else {
        state.sweepCursor &+= 1
      }
    }
  }
}
