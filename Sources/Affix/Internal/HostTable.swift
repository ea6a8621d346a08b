internal import AffixRuntimeShims
// Public although no public API names it: `@inlinable` code below, specialized into callers,
// uses `Atomic`, and inlinable code may only use what is imported publicly.
public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  private static let writer: Locked<WriterState> = {
    let slots = SlotArray(capacity: 64)
    publish(slots)
    version.store(0, ordering: .releasing)
    return Locked(WriterState(slots: slots), processWide: .hostTableWriter)
  }()

  private struct WriterState {
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
  private static let passLock = Locked((), processWide: .hostTablePass)

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
  private static let deinitGraceNanoseconds = Atomic<Int64>(30_000_000_000)

  /// See ``AssociationTable/deinitGrace``.
  static var deinitGrace: Duration {
    get { .nanoseconds(deinitGraceNanoseconds.load(ordering: .relaxed)) }
    set {
      let (seconds, attoseconds) = newValue.components
      guard seconds >= 0, attoseconds >= 0 else {
        Diagnostics.report(
          "associations", "deinitGrace = \(newValue) is negative; it stays \(deinitGrace)")
        return
      }
      // Nine billion seconds and more saturate: a grace of centuries.
      let nanoseconds =
        seconds >= Int64.max / 1_000_000_000
        ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
      deinitGraceNanoseconds.store(nanoseconds, ordering: .relaxed)
    }
  }

  /// Readers waiting for a sweep's chunk to end.
  private static let waitingReaders = Atomic<Int>(0)

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
        sched_yield()
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
  private static func weakStorageBits(of host: AnyObject) -> UInt {
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
        "associations",
        "a \(type(of: host)) cannot carry associated values: \(reason); "
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
        "associations",
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
  private static func makeRoom() {
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

  /// Takes every dead host off both tables and releases their values on this thread, waiting
  /// for releases other threads have under way (see ``ReleaseQueue``). Returns how many hosts
  /// it took off. `deinitGrace`, for tests, replaces ``deinitGrace`` for this sweep's pass
  /// alone, so that a test can use a short grace without changing the process's.
  @discardableResult
  static func sweep(deinitGrace grace: Duration? = nil) -> Int {
    let swept = takeDeadHostsOff(deinitGrace: grace)
    ReleaseQueue.releaseAllAndWait()
    return swept
  }

  /// A sweep for the background sweeper: like ``sweep()`` without waiting for other threads.
  /// Returns how many hosts it took off and whether any host is left in either table.
  static func sweepInBackground() -> (swept: Int, hostsLeft: Bool) {
    let swept = takeDeadHostsOff()
    ReleaseQueue.releaseAll()
    let pinnedLeft = writer.withLock { $0.count > 0 }
    return (swept, pinnedLeft || WeakHostTable.hostCount > 0)
  }

  /// Takes every dead host off both tables into the release queue, and releases the values of
  /// hosts that linger in their deinit. Returns how many hosts it took off.
  static func takeDeadHostsOff(deinitGrace grace: Duration? = nil) -> Int {
    let pass = passLock.whileLocked { runPass(releasingPast: grace ?? deinitGrace) }
    pass.reportLingeringHosts()
    pass.releaseValuesPastGrace()
    let weak = WeakHostTable.sweep()
    _ = ReleaseQueue.enqueue(weak)
    return pass.swept + weak.count
  }

  /// Between two chunks of a pass, with the version even: waits until the readers that waited
  /// for a chunk have read, for up to about 50 µs, so that a read that misses waits for one
  /// chunk, not for the whole pass.
  private static func letWaitingReadersThrough() {
    guard waitingReaders.load(ordering: .acquiring) > 0 else { return }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .microseconds(50))
    while waitingReaders.load(ordering: .acquiring) > 0, clock.now < deadline {
      affix_spin_pause()
    }
  }

  /// What a pass did, and what is left to do once `passLock` is released.
  private struct Pass {
    var swept = 0
    /// Whether a drain of the release queue must be scheduled.
    var drains = false
    /// How many hosts of each type have lingered in their deinit past ``lingerLimit``, newly.
    var overdue = HostTypeCounts()
    /// The grace past which the pass took hosts' storages, if it took them.
    var grace: Duration?
    /// The storages, retained, of hosts that have lingered past `grace`, newly.
    var pastGrace: [Unmanaged<AssociationStorage>] = []
    var pastGraceTypes = HostTypeCounts()

    /// Reports the overdue hosts, outside every lock: a diagnostic handler is user code.
    func reportLingeringHosts() {
      for entry in overdue.counts {
        let hosts = HostTypeCounts.words(entry.count, entry.type)
        Diagnostics.report(
          "associations",
          "\(hosts.subject) been in \(hosts.its) deinit for more than \(lingerLimit), or "
            + "something holds \(hosts.it) unowned; \(hosts.its) values are kept until the "
            + "deinit has returned and no unowned reference remains, or for \(deinitGrace) "
            + "(AssociationTable.deinitGrace)")
      }
    }

    /// Releases the values of the hosts past their grace, outside every lock: capabilities'
    /// `didEnd` and observers run here, on the sweeping thread.
    func releaseValuesPastGrace() {
      for storage in pastGrace {
        _ = storage._withUnsafeGuaranteedRef { $0.releaseValuesOfLingeringHost() }
        storage.release()
      }
      for entry in pastGraceTypes.counts {
        let hosts = HostTypeCounts.words(entry.count, entry.type)
        Diagnostics.report(
          "associations",
          "\(hosts.subject) stayed in \(hosts.its) deinit, or been held unowned, for "
            + "\(grace ?? deinitGrace) "
            + "(AssociationTable.deinitGrace): \(hosts.its) values are released now, and a "
            + "deinit still running reads none")
      }
    }
  }

  /// Hosts counted by type, in the order the types were first counted.
  private struct HostTypeCounts {
    private(set) var counts: [(type: any AnyObject.Type, count: Int)] = []

    /// "a Photo has" and its pronouns, or "3 Photo hosts have" and theirs.
    static func words(_ count: Int, _ type: any AnyObject.Type) -> (
      subject: String, it: String, its: String
    ) {
      count == 1
        ? ("a \(type) has", "it", "its") : ("\(count) \(type) hosts have", "them", "their")
    }

    mutating func add(_ type: any AnyObject.Type) {
      if let index = counts.firstIndex(where: { $0.type == type }) {
        counts[index].count += 1
      } else {
        counts.append((type, 1))
      }
    }
  }

  /// Sweeps every slot, one chunk at a time under the lock, and queues the dead hosts'
  /// storages for release; given a grace, also takes the storages of hosts that have lingered
  /// past it, for the caller to empty. The caller holds `passLock`.
  private static func runPass(releasingPast grace: Duration?) -> Pass {
    var index = 0
    var arrayBits: UInt = 0
    var pass = Pass(grace: grace)
    var lingeringNow: [UInt: ContinuousClock.Instant] = [:]
    let now = ContinuousClock.now
    writer.withLock { $0.passInProgress = true }
    var finished = false
    while !finished {
      writer.withLock { state in
        // Only a pass makes the table grow, and passes take turns: the array never changes
        // under a pass. Start over if it ever does.
        if state.slots.bits != arrayBits {
          arrayBits = state.slots.bits
          index = 0
        }
        var chunk: [Unmanaged<AssociationStorage>] = []
        var budget = chunkSize
        beginWrite()
        while budget > 0, index < state.slots.capacity {
          guard state.slots.address(at: index) != 0 else {
            budget -= 1
            index += 1
            continue
          }
          // A whole run of occupied slots at a time, from its end back to its start: removing
          // an entry shifts back the entries after it in its run, so removing a run's dead
          // front to back would cost the square of its length, and back to front costs each
          // removal only the live entries behind it.
          var end = index + 1
          while end < state.slots.capacity, state.slots.address(at: end) != 0 { end += 1 }
          budget -= end - index
          for slot in (index..<end).reversed() {
            switch state.slots.host(at: slot) {
            case .dead(let storage):
              chunk.append(storage)
              budget -= state.slots.remove(at: slot) - 1
              state.count -= 1
            case .inDeinit(let address):
              let firstSeen = state.lingering[address] ?? now
              lingeringNow[address] = firstSeen
              if now - firstSeen >= lingerLimit, state.reported.insert(address).inserted {
                pass.overdue.add(state.slots.hostType(at: slot))
              }
              if let grace, now - firstSeen >= grace,
                state.released.insert(address).inserted, let storage = state.slots.storage(at: slot)
              {
                // Retained under the lock, while the table holds it.
                pass.pastGrace.append(storage.retain())
                pass.pastGraceTypes.add(state.slots.hostType(at: slot))
              }
            case .empty, .live:
              break
            }
          }
          index = end
        }
        endWrite()
        finished = index >= state.slots.capacity
        if ReleaseQueue.enqueue(chunk) { pass.drains = true }
        pass.swept += chunk.count
        if finished {
          state.passInProgress = false
          state.lingering = lingeringNow
          state.reported.formIntersection(lingeringNow.keys)
          state.released.formIntersection(lingeringNow.keys)
        }
      }
      // A moment between chunks for the readers that wait for one: a lock taken again at
      // once would starve them.
      if !finished { letWaitingReadersThrough() }
    }
    return pass
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

  private static func beginWrite() {
    #if DEBUG
      affix_write_began()
    #endif
    let current = version.load(ordering: .relaxed)
    version.store(current &+ 1, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
  }

  private static func endWrite() {
    let current = version.load(ordering: .relaxed)
    version.store(current &+ 1, ordering: .releasing)
    #if DEBUG
      affix_write_ended()
    #endif
  }

  /// Makes `slots` the array readers probe: the array first, then its mask, so that a reader
  /// that loads the mask first never probes past the end of the array it loads next. Both with
  /// release, and loaded with acquire: a reader on a weakly ordered CPU that sees either word
  /// sees the array's slots as they were written before it.
  private static func publish(_ slots: SlotArray) {
    currentSlots.store(slots.bits, ordering: .releasing)
    currentOffsetMask.store(slots.offsetMask, ordering: .releasing)
  }

  /// Doubles the table. The larger array is filled before the version turns odd, so a careful
  /// reader waits only for the publication, not for the copy.
  private static func grow(_ state: inout WriterState) {
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

  private static func sweepIncrementally(
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

/// The inline bits stored under `keyID` on `host`, or nil.
///
/// The read of every inline value: one optimistic pass through the table's slot (validated by
/// reading its address again) and the host's inline entries (which keep their keys), with the
/// careful path behind it. Out of line, so that it reaches the table's words directly, and a
/// free function, so that no thunk stands in front of it. It releases nothing it did not retain
/// itself and says so (`releasenone`), so that a caller whose host sits in memory (in an array,
/// say) need not retain the host around the call. The caller holds the host, so the storage
/// found in its slot cannot be swept during the read.
@usableFromInline @_effects(releasenone)
func inlineBits(for keyID: UInt, of host: AnyObject) -> UInt? {
  let offsetMask = HostTable.currentOffsetMask.load(ordering: .acquiring)
  let slots = HostTable.currentSlots.load(ordering: .acquiring)
  // No slots yet: no host has a value.
  guard slots != 0 else { return inlineBitsCarefully(for: keyID, of: host) }
  let table = SlotArray(bits: slots)
  let address = UInt(bitPattern: ObjectIdentifier(host))
  // A miss is told apart by the offset, not by a storage of 0, so that a hit goes straight on.
  // It may be a slot cleared for a moment by a writer: the careful path settles it.
  guard let offset = table.offset(of: address, offsetMask: offsetMask) else {
    return inlineBitsCarefully(for: keyID, of: host)
  }
  let bits = table.storageBits(atOffset: offset)
  atomicMemoryFence(ordering: .acquiring)
  // The slot still holds the host's address, so it held it when its storage was read: a writer
  // clears the address before it changes the storage.
  guard table.word(at: offset) == address else {
    return inlineBitsCarefully(for: keyID, of: host)
  }
  // The table holds the storage. Its fields are read one by one: small closures inline, and a
  // retained reference would cost two atomic operations. Unchecked: the bits are never 0 here.
  let storage = Unmanaged<AssociationStorage>.fromOpaque(
    UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
  // The storage's own `inlineBits(for:)`, spelled out (a closure that captures the key ID
  // stays a call): an inline entry that holds the key keeps it, so a match needs no version
  // check. Acquiring, so that the payload is at least the one stored before the key word.
  if storage._withUnsafeGuaranteedRef({ $0.firstKeyID.load(ordering: .acquiring) }) == keyID {
    return storage._withUnsafeGuaranteedRef { $0.firstPayload.load(ordering: .relaxed) }
  }
  if storage._withUnsafeGuaranteedRef({ $0.secondKeyID.load(ordering: .acquiring) }) == keyID {
    return storage._withUnsafeGuaranteedRef { $0.secondPayload.load(ordering: .relaxed) }
  }
  if storage._withUnsafeGuaranteedRef({ $0.overflow.load(ordering: .relaxed) }) == 0 {
    return nil
  }
  return overflowBits(for: keyID, of: host, in: bits)
}

/// The rest of ``inlineBits(for:of:)``'s pass when the storage's inline entries hold other
/// keys and it has an overflow: the scan of the overflow, validated by the storage's version.
///
/// Out of line, so that the scan's loop and registers stay out of the read of an inline
/// entry. A free function rather than the storage's own `overflowBits(for:)`: a method
/// takes the storage in the register that holds `self`, which the caller would have to save
/// on every read. The caller found the storage in the table and holds its host, so the
/// storage cannot be swept during the read.
@inline(never) @_effects(releasenone)
func overflowBits(for keyID: UInt, of host: AnyObject, in storageBits: UInt) -> UInt? {
  // Unchecked: the caller passes the nonzero address of a storage the table holds.
  let storage = Unmanaged<AssociationStorage>.fromOpaque(
    UnsafeRawPointer(bitPattern: storageBits).unsafelyUnwrapped)
  let before = storage._withUnsafeGuaranteedRef { $0.version.load(ordering: .acquiring) }
  // Acquiring, so that the buffer's capacity and zeroed entries are seen with its address.
  // Never 0: the caller saw an overflow, and a storage keeps its overflow once it has one.
  let overflow = storage._withUnsafeGuaranteedRef { $0.overflow.load(ordering: .acquiring) }
  let found = EntryBuffer.find(keyID, in: overflow)
  atomicMemoryFence(ordering: .acquiring)
  let after = storage._withUnsafeGuaranteedRef { $0.version.load(ordering: .relaxed) }
  // Versions only grow, so this holds only if the version was even and has not changed.
  guard after == before & ~1 else { return inlineBitsCarefully(for: keyID, of: host) }
  return found
}

/// The inline bits stored under `keyID` on `host`, or nil, however long it takes: retries,
/// then the writer's lock, then the storage of an ``AssociationOwner``.
///
/// Every fallback of ``inlineBits(for:of:)`` but the overflow's comes here with the same
/// arguments, so that the fast path has a single call site for them.
func inlineBitsCarefully(for keyID: UInt, of host: AnyObject) -> UInt? {
  let bits = HostTable.storageBits(of: host)
  if bits != 0 {
    // Nonzero storage bits are the address of a storage the table holds, and the caller
    // holds the host.
    return Unmanaged<AssociationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
      ._withUnsafeGuaranteedRef { $0.inlineBits(for: keyID) }
  }
  return (host as? any AssociationOwner)?.associationStorage.inlineBits(for: keyID)
}

/// A power-of-two array of (host address, storage) slots, read with relaxed atomic loads.
///
/// Word 0 holds the capacity mask; slot *i* is words 1 + 2*i* (address, 0 when empty) and
/// 2 + 2*i* (an unmanaged, retained storage).
@usableFromInline
struct SlotArray {
  @usableFromInline
  let words: UnsafeMutablePointer<Atomic<UInt>>

  init(capacity: Int) {
    words = .allocate(capacity: 1 + 2 * capacity)
    words.initialize(to: Atomic(UInt(capacity - 1)))
    for index in 1...(2 * capacity) {
      (words + index).initialize(to: Atomic(0))
    }
  }

  @inlinable
  init(bits: UInt) {
    // `bits` always comes from `currentSlots` while the version is even, when it holds a live
    // array's base.
    words = UnsafeMutablePointer(bitPattern: bits).unsafelyUnwrapped
  }

  var bits: UInt { UInt(bitPattern: words) }

  var mask: Int { Int(bitPattern: words[0].load(ordering: .relaxed)) }

  /// The capacity mask in bytes: slot *i* starts `16 * i` bytes past the mask word.
  var offsetMask: UInt { UInt(bitPattern: mask) &<< 4 }

  var capacity: Int { mask + 1 }

  @inlinable @inline(__always)
  static func homeOffset(of address: UInt, offsetMask: UInt) -> UInt {
    // Objects are 16-byte aligned, so the low bits carry nothing. The rest is kept in order,
    // so hosts allocated together sit in neighbouring slots and a loop over them walks the
    // table forward instead of jumping through it; adding the bits above 2 MiB spreads objects
    // that share their low bits (such as page-aligned ones) over the table. Added, not XORed:
    // an XOR would flip the order of the slots within each 2 MiB of addresses, and a loop
    // would visit each page of the table out of order.
    // Masked with `mask << 4`, the sum is the home slot's byte offset, which costs no shift.
    (address &+ (address &>> 17)) & offsetMask
  }

  static func home(of address: UInt, mask: Int) -> Int {
    Int(bitPattern: homeOffset(of: address, offsetMask: UInt(bitPattern: mask) &<< 4) &>> 4)
  }

  /// The word `offset` bytes past the mask word: a slot's address at a slot's offset, its
  /// storage 8 bytes on.
  @inlinable @inline(__always)
  func word(at offset: UInt) -> UInt {
    atomicWord(at: offset).pointee.load(ordering: .relaxed)
  }

  @inlinable @inline(__always)
  func atomicWord(at offset: UInt) -> UnsafePointer<Atomic<UInt>> {
    UnsafePointer(
      (UnsafeMutableRawPointer(words) + (8 &+ Int(bitPattern: offset)))
        .assumingMemoryBound(to: Atomic<UInt>.self))
  }

  /// The byte offset of the slot that holds `address`, probing with `offsetMask`, which must
  /// not exceed this array's own; nil if there is none. Terminates even on a torn read.
  @inlinable @inline(__always)
  func offset(of address: UInt, offsetMask: UInt) -> UInt? {
    var offset = Self.homeOffset(of: address, offsetMask: offsetMask)
    var probed: UInt = 0
    while true {
      // Acquiring, so that the storage read next is at least the one published with this
      // address.
      let candidate = atomicWord(at: offset).pointee.load(ordering: .acquiring)
      if candidate == address { return offset }
      if candidate == 0 || probed == offsetMask { return nil }
      offset = (offset &+ 16) & offsetMask
      probed &+= 16
    }
  }

  /// The storage bits of the slot at `offset`.
  @inlinable @inline(__always)
  func storageBits(atOffset offset: UInt) -> UInt {
    word(at: offset &+ 8)
  }

  /// The storage bits for `address`, or 0. Terminates even on a torn read.
  func find(_ address: UInt) -> UInt {
    find(address, offsetMask: offsetMask)
  }

  /// The storage bits for `address`, probing with `offsetMask`, which must not exceed this
  /// array's own; 0 if there is none. Terminates even on a torn read.
  @inline(__always)
  func find(_ address: UInt, offsetMask: UInt) -> UInt {
    guard let offset = offset(of: address, offsetMask: offsetMask) else { return 0 }
    return storageBits(atOffset: offset)
  }

  func address(at index: Int) -> UInt {
    words[1 + 2 * index].load(ordering: .relaxed)
  }

  func storageBits(at index: Int) -> UInt {
    words[2 + 2 * index].load(ordering: .relaxed)
  }

  func storage(at index: Int) -> Unmanaged<AssociationStorage>? {
    guard address(at: index) != 0 else { return nil }
    // A slot with an address always holds a retained storage.
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: storageBits(at: index))!)
  }

  /// Whether the host in slot `index` has finished its deinit. Its memory stays readable: the
  /// slot's storage pins it.
  ///
  /// A host inside its deinit is not dead yet: its deinit may still read its values. After the
  /// deinit, the host's unowned count is exactly its pins: the storage's, and those of any
  /// ``WeakReference`` to it.
  func isDead(at index: Int) -> Bool {
    if case .dead = host(at: index) { return true }
    return false
  }

  func deadStorage(at index: Int) -> Unmanaged<AssociationStorage>? {
    isDead(at: index) ? storage(at: index) : nil
  }

  /// What a sweep finds in a slot.
  enum SweptHost {
    case empty
    case live
    /// Its deinit has begun and not visibly ended: the unowned count holds more than the
    /// strong references' one and the pins. Either the deinit runs, or something holds the
    /// host `unowned`.
    case inDeinit(address: UInt)
    case dead(Unmanaged<AssociationStorage>)
  }

  func host(at index: Int) -> SweptHost {
    let address = address(at: index)
    guard address != 0, let object = UnsafeMutableRawPointer(bitPattern: address) else {
      return .empty
    }
    guard affix_is_deallocating(object) else { return .live }
    // The flag was set by the releasing decrement that ended the host's life: what happened
    // before it, such as a pin taken while the host lived, is seen after this fence.
    atomicMemoryFence(ordering: .acquiring)
    // A slot with an address always holds a retained storage.
    let storage = Unmanaged<AssociationStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: storageBits(at: index))!)
    let unownedCount = affix_unowned_count(object)
    // A `WeakReference` uncounts its pin, fences, then drops it (see `Pin`): a count read
    // without the pin comes, after this fence, with a `ForeignPins` that no longer counts it.
    atomicMemoryFence(ordering: .acquiring)
    guard unownedCount <= 1 + ForeignPins.count(at: object) else {
      return .inDeinit(address: address)
    }
    return .dead(storage)
  }

  /// The class of the host in slot `index`, read from the object's header, which the slot's
  /// storage keeps allocated.
  func hostType(at index: Int) -> any AnyObject.Type {
    // The address is nonzero: the caller found a host there.
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address(at: index))!)
      ._withUnsafeGuaranteedRef { type(of: $0) }
  }

  func insert(_ address: UInt, _ storage: Unmanaged<AssociationStorage>) {
    insertBits(address, UInt(bitPattern: storage.toOpaque()))
  }

  func insertBits(_ address: UInt, _ storageBits: UInt) {
    let mask = self.mask
    var index = Self.home(of: address, mask: mask)
    while self.address(at: index) != 0 {
      index = (index + 1) & mask
    }
    words[2 + 2 * index].store(storageBits, ordering: .relaxed)
    words[1 + 2 * index].store(address, ordering: .releasing)
  }

  /// Empties slot `index`, shifting later slots of its probe run back so that no tombstones
  /// are needed.
  ///
  /// Each slot's address is cleared before its storage changes, and set after: a lock-free
  /// reader that reads the same address before and after the storage has read that address's
  /// storage (see ``inlineBits(for:of:)``). An entry only ever moves backward, so its address
  /// never returns to a slot it left.
  /// Returns how many slots it visited, so that a sweep can bound its work under the lock.
  @discardableResult
  func remove(at index: Int) -> Int {
    let mask = self.mask
    var hole = index
    var visited = 1
    clearAddress(at: hole)
    var next = (hole + 1) & mask
    while true {
      visited += 1
      let address = self.address(at: next)
      if address == 0 { break }
      let home = Self.home(of: address, mask: mask)
      // Move the entry into the hole unless its home lies cyclically in (hole, next].
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !stays {
        words[2 + 2 * hole].store(storageBits(at: next), ordering: .relaxed)
        words[1 + 2 * hole].store(address, ordering: .releasing)
        hole = next
        clearAddress(at: hole)
      }
      next = (next + 1) & mask
    }
    words[2 + 2 * hole].store(0, ordering: .relaxed)
    return visited
  }

  /// Clears slot `index`'s address, ordered before any later store to its storage.
  private func clearAddress(at index: Int) {
    words[1 + 2 * index].store(0, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
  }
}
