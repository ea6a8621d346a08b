internal import AffixRuntimeShims
// Public although no public API names it: `@inlinable` code below, specialized into callers,
// uses `Atomic`, and inlinable code may only use what is imported publicly.
public import Synchronization

/// The associated values of one host.
///
/// You rarely touch this type: ``Associations`` finds the storage of any host for you. It is
/// public so that a type can own its storage through ``AssociationOwner``:
///
/// ```swift
/// final class Card: AssociationOwner {
///   let associationStorage = AssociationStorage()
/// }
/// ```
///
/// Writers take the storage's lock, which is never held while user code runs: factories and
/// observers are called only after unlocking, and a replaced or removed value is released
/// later, on a thread of the library's (or in the next ``AssociationTable/sweep()``), once no
/// reader can still be reading it. No read takes a lock: values of trivial types up to a word
/// (`Int`, `Double`, `Bool`, small enums) are stored inline and copied out; other values are
/// retained (or copied out of their box) inside a read section that writers never wait for.
public final class AssociationStorage: Sendable {
  // The fields a reader touches come first and together: the version, the two inline entries
  // and the overflow's address share the object's first cache line or two, and a read of an
  // inline entry chases no pointer.
  //
  // An inline entry's key word is 0 while the entry is free, the key's ID while it holds the
  // key's value, and the ID with `KeyID.absentBit` once the value is removed. An entry taken by
  // a key whose values are inline keeps that key for the storage's life, so a lock-free reader
  // that finds its key in an entry reads that key's payload whatever writers do meanwhile, and
  // needs no version check. An entry of any other key is freed on removal: such payloads are
  // read under the lock.

  /// Even while the entries are consistent, odd while a writer changes them. Readers of the
  /// overflow, and careful readers, check it.
  @usableFromInline
  let version = Atomic<UInt>(0)

  /// The first inline entry's key word (see above).
  @usableFromInline
  let firstKeyID = Atomic<UInt>(0)

  /// The first inline entry's payload bits.
  @usableFromInline
  let firstPayload = Atomic<UInt>(0)

  /// The second inline entry's key word.
  @usableFromInline
  let secondKeyID = Atomic<UInt>(0)

  /// The second inline entry's payload bits.
  @usableFromInline
  let secondPayload = Atomic<UInt>(0)

  /// The base address of the ``EntryBuffer`` that holds the entries that found both inline
  /// entries taken, or 0 until the first such entry arrives. Once allocated it is kept, emptied
  /// or not, and each larger buffer links to the one it replaced.
  @usableFromInline
  let overflow = Atomic<UInt>(0)

  /// The number of entries in the overflow; they are its first ones. Four bytes, so that it
  /// shares a word with `lock`.
  let overflowCount = Atomic<UInt32>(0)

  @usableFromInline
  let lock = SpinLock()

  /// Held (1) by a writer that changes an inline entry whose key's values are inline: the
  /// writers of `storeInPlace(_:for:)`, which hold nothing else, and writers under `lock` that
  /// change such an entry's payload or mark it empty. Never held while waiting for anything.
  let inlineEntryLock = Atomic<UInt32>(0)

  /// Whether `observers` may be non-empty; set under `lock` before an observer is added, so a
  /// writer that finds it clear may skip the observers (see `storeInPlace(_:for:)`).
  let isObserved = Atomic<Bool>(false)

  /// Observers of this storage's keys. Only touched while `lock` is held.
  @exclusivity(unchecked)
  nonisolated(unsafe) var observers: [ObserverRegistration] = []

  /// The address of the host this storage was created for by the shared table, or 0 for an
  /// owner's storage.
  ///
  /// Such a storage pins its host (see `affix_pin`): the host's memory stays allocated while
  /// the storage lives, so no other object can appear at `hostAddress`, but its deinit still
  /// runs on time.
  let hostAddress: UInt

  /// Creates empty storage, to be kept in a stored property of an ``AssociationOwner``.
  public init() {
    hostAddress = 0
  }

  init(pinning host: AnyObject, at address: UInt) {
    hostAddress = address
    affix_pin(Unmanaged.passUnretained(host).toOpaque())
  }

  deinit {
    // No reader can be inside this storage now: a reader holds the host, and a storage dies
    // only after its host. Values are released here, outside every lock.
    //
    // The host's deinit may have written values on another thread just before the sweep that
    // found it dead; the runtime's decrement of its unowned count, which the sweep read, is
    // relaxed and orders nothing on ARM64. Every writer leaves the entries with a releasing
    // unlock of one of the two locks, so taking both here sees every write.
    lock.lock()
    lockInlineEntries()
    unlockInlineEntries()
    lock.unlock()
    endCapabilitiesOfDeadHost()
    forEachEntry { keyID, payloadBits in
      guard !KeyID.isInline(keyID) else { return }
      // Object payloads are retained addresses.
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: payloadBits)!).release()
    }
    let overflow = overflow.load(ordering: .relaxed)
    if overflow != 0 { EntryBuffer(bits: overflow).deallocateChain() }
    if hostAddress != 0 {
      affix_unpin(UnsafeMutableRawPointer(bitPattern: hostAddress))
    }
  }

  // MARK: Entries, for writers (under `lock`) and the deinit

  /// The key word of inline entry `slot`, 0 or 1.
  @inline(__always)
  func inlineKeyWord(_ slot: Int) -> UInt {
    slot == 0 ? firstKeyID.load(ordering: .relaxed) : secondKeyID.load(ordering: .relaxed)
  }

  @inline(__always)
  func inlinePayloadBits(_ slot: Int) -> UInt {
    slot == 0 ? firstPayload.load(ordering: .relaxed) : secondPayload.load(ordering: .relaxed)
  }

  /// Stores inline entry `slot`'s payload, then its key word, released, so that a lock-free
  /// reader that sees the key word sees the payload stored with it.
  @inline(__always)
  private func setInlineEntry(_ slot: Int, keyWord: UInt, payloadBits: UInt) {
    if slot == 0 {
      firstPayload.store(payloadBits, ordering: .relaxed)
      firstKeyID.store(keyWord, ordering: .releasing)
    } else {
      secondPayload.store(payloadBits, ordering: .relaxed)
      secondKeyID.store(keyWord, ordering: .releasing)
    }
  }

  /// Frees inline entry `slot`: its key word, then its payload, released, so that the key is
  /// never seen with a payload of 0 (see `replace(_:with:)`).
  @inline(__always)
  private func clearInlineEntry(_ slot: Int) {
    if slot == 0 {
      firstKeyID.store(0, ordering: .relaxed)
      firstPayload.store(0, ordering: .releasing)
    } else {
      secondKeyID.store(0, ordering: .relaxed)
      secondPayload.store(0, ordering: .releasing)
    }
  }

  @inline(__always)
  private func setInlinePayloadBits(_ payloadBits: UInt, _ slot: Int) {
    if slot == 0 {
      firstPayload.store(payloadBits, ordering: .relaxed)
    } else {
      secondPayload.store(payloadBits, ordering: .relaxed)
    }
  }

  /// Whether an inline key word holds a key's value: neither free nor emptied.
  @inline(__always)
  static func holdsValue(_ keyWord: UInt) -> Bool {
    keyWord != 0 && keyWord & KeyID.absentBit == 0
  }

  var overflowEntryCount: Int {
    Int(overflowCount.load(ordering: .relaxed))
  }

  private var overflowBuffer: EntryBuffer {
    // Called only while the overflow has entries, so it exists.
    EntryBuffer(bits: overflow.load(ordering: .relaxed))
  }

  /// Calls `body` with the key ID and payload bits of every entry that holds a value.
  func forEachEntry(_ body: (_ keyID: UInt, _ payloadBits: UInt) -> Void) {
    for slot in 0..<2 {
      let keyWord = inlineKeyWord(slot)
      if Self.holdsValue(keyWord) { body(keyWord, inlinePayloadBits(slot)) }
    }
    let count = overflowEntryCount
    guard count > 0 else { return }
    let buffer = overflowBuffer
    for index in 0..<count {
      body(buffer.keyID(at: index), buffer.payloadBits(at: index))
    }
  }

  // MARK: Writing

  /// Stores `payload` (nil removes) and returns what it replaced, with the observers to
  /// notify. The caller retires what it replaced (`Retirement.retire(_:)`) after its last use.
  @usableFromInline
  func exchange(_ payload: Payload?, for keyID: UInt) -> (
    old: Payload?, observers: ObserverCalls?
  ) {
    if let payload, KeyID.isInline(keyID), let old = storeInPlace(payload.bits, for: keyID) {
      return (Payload(inline: old), nil)
    }
    let (oldBits, observers) = withWriteLocks(for: keyID) { () -> (UInt?, ObserverCalls?) in
      let old = replace(keyID, with: payload)
      return (old, observerCalls(forChangeOf: keyID, from: old, to: payload))
    }
    return (handOver(oldBits, for: keyID), observers)
  }

  /// The caller's payload for bits a writer took out of an entry, with the storage's reference.
  /// Call after unlocking. The caller must hand an object payload to `Retirement.retire(_:)`
  /// once it is done with it, with no other reference of its own left: a reader may be about
  /// to retain the object, and its `deinit` must not run on the writer's thread.
  @inline(__always)
  private func handOver(_ oldBits: UInt?, for keyID: UInt) -> Payload? {
    guard let oldBits else { return nil }
    if KeyID.isInline(keyID) { return Payload(inline: oldBits) }
    return Payload(adoptingRetained: oldBits)
  }

  /// Stores `payload` unless a value is already there, and returns the one that stays.
  ///
  /// When a value is already there, `inserted` is false and `payload` stays the caller's, to be
  /// released after unlocking when the caller drops it.
  @usableFromInline
  func insertIfAbsent(_ payload: Payload, for keyID: UInt) -> (
    stored: Payload, inserted: Bool, observers: ObserverCalls?
  ) {
    withWriteLocks(for: keyID) {
      if let bits = find(keyID) {
        return (Payload(copying: bits, for: keyID), false, nil)
      }
      let replaced = replace(keyID, with: payload)
      assert(replaced == nil, "insertIfAbsent replaced a value")
      return (payload, true, observerCalls(forChangeOf: keyID, from: nil, to: payload))
    }
  }

  /// Stores `payload` (nil removes) only if the entry under `keyID` still holds `expected`
  /// (nil: no value), as ``Associations/update(_:_:)`` needs: whether it did, with what it
  /// replaced, for the caller to retire, and the observers to notify, taken in the same
  /// critical section.
  @usableFromInline
  func compareAndExchange(_ expected: Payload?, with payload: Payload?, for keyID: UInt) -> (
    exchanged: Bool, old: Payload?, observers: ObserverCalls?
  ) {
    let (exchanged, oldBits, observers) = withWriteLocks(for: keyID) {
      () -> (Bool, UInt?, ObserverCalls?) in
      guard find(keyID) == expected?.bits else { return (false, nil, nil) }
      let old = replace(keyID, with: payload)
      return (true, old, observerCalls(forChangeOf: keyID, from: old, to: payload))
    }
    return (exchanged, handOver(oldBits, for: keyID), observers)
  }

  /// Replaces the payload under `keyID` only if it is still `expected`; returns what was removed,
  /// for the caller to retire.
  @usableFromInline
  func exchangeIfSame(_ expected: Payload, with payload: Payload?, for keyID: UInt)
    -> Payload?
  {
    let oldBits = withWriteLocks(for: keyID) { () -> UInt? in
      guard let bits = find(keyID), bits == expected.bits else { return nil }
      return replace(keyID, with: payload)
    }
    return handOver(oldBits, for: keyID)
  }

  /// Runs a writer's `body` under `lock`, and for a key whose values are inline under the
  /// inline entry lock too: writers in place (`storeInPlace(_:for:)`) change such a key's
  /// inline entry under that lock alone, so a writer that reads the entry before it writes
  /// (a compare-and-exchange, a removal returning the old value) holds it across both.
  @inline(__always)
  private func withWriteLocks<Result>(for keyID: UInt, _ body: () -> Result) -> Result {
    lock.withLock {
      guard KeyID.isInline(keyID) else { return body() }
      lockInlineEntries()
      defer { unlockInlineEntries() }
      return body()
    }
  }

  /// Writes one entry under the seqlock, with the locks of `withWriteLocks(for:_:)` held. The
  /// storage's reference to `payload` is taken here; the replaced payload's bits are handed
  /// back with the storage's reference, for `handOver(_:for:)`.
  ///
  /// Stopped after any of its stores, the write leaves entries in which `find(_:)` reads every
  /// key's value before the write or after it, never another key's payload or a payload of 0
  /// under a key that has none: the state that the child of a fork copies from a writer that
  /// does not exist there, and reads without the lock that writer holds
  /// (`payloadBitsInChildOfFork(for:)`).
  /// Each store that depends on an earlier one is released, so that the copy, taken at one
  /// instant, never holds it without the earlier one. Each step, in order:
  /// - a payload over a payload: one store;
  /// - a value into an entry: its payload, then its key word, released; until then, the entry
  ///   holds no value of the key;
  /// - a removal from an inline entry: the key word, then the payload, released, so that the
  ///   key is never seen with a payload of 0;
  /// - a removal from the overflow: the removed key's word is cleared; the last entry's payload
  ///   is copied into the hole, then its key (so that key is found twice with one payload); the
  ///   last entry's key word is cleared, then its payload, each released after the one before.
  ///
  /// Each word takes each of its values at most once in a write, which the child's double
  /// read relies on. Only the overflow removal costs more than it did (one store and a few
  /// releases); the others had these orders or need nothing on x86-64.
  private func replace(_ keyID: UInt, with payload: Payload?) -> UInt? {
    for slot in 0..<2 {
      let keyWord = inlineKeyWord(slot)
      if keyWord == keyID {
        let old = inlinePayloadBits(slot)
        beginWrite()
        defer { endWrite() }
        if let payload {
          setInlinePayloadBits(payload.retainedBits(for: keyID), slot)
        } else if KeyID.isInline(keyID) {
          // The entry keeps its key (see the note on the fields); its bits need no release.
          setInlineEntry(
            slot, keyWord: keyID | KeyID.absentBit, payloadBits: inlinePayloadBits(slot))
        } else {
          clearInlineEntry(slot)
        }
        return old
      }
      if keyWord == keyID | KeyID.absentBit {
        guard let payload else { return nil }
        beginWrite()
        defer { endWrite() }
        setInlineEntry(slot, keyWord: keyID, payloadBits: payload.retainedBits(for: keyID))
        return nil
      }
    }
    let count = overflowEntryCount
    if count > 0, case let buffer = overflowBuffer,
      let index = (0..<count).first(where: { buffer.keyID(at: $0) == keyID })
    {
      let old = buffer.payloadBits(at: index)
      beginWrite()
      defer { endWrite() }
      if let payload {
        buffer.setPayloadBits(payload.retainedBits(for: keyID), at: index)
      } else {
        // The last entry fills the hole, in the order argued above; the odd version covers
        // every store.
        let last = count - 1
        if index != last {
          buffer.setKeyID(0, at: index)
          buffer.setPayloadBitsReleasing(buffer.payloadBits(at: last), at: index)
          buffer.setKeyIDReleasing(buffer.keyID(at: last), at: index)
        }
        // Entries past the count stay zero, so that a reader may scan the whole buffer.
        buffer.setKeyIDReleasing(0, at: last)
        buffer.setPayloadBitsReleasing(0, at: last)
        overflowCount.store(UInt32(last), ordering: .relaxed)
      }
      return old
    }
    guard let payload else { return nil }
    beginWrite()
    defer { endWrite() }
    let payloadBits = payload.retainedBits(for: keyID)
    for slot in 0..<2 where inlineKeyWord(slot) == 0 {
      setInlineEntry(slot, keyWord: keyID, payloadBits: payloadBits)
      return nil
    }
    makeRoomInOverflow(for: count)
    overflowBuffer.setPayloadBits(payloadBits, at: count)
    overflowBuffer.setKeyIDReleasing(keyID, at: count)
    overflowCount.store(UInt32(count + 1), ordering: .relaxed)
    return nil
  }

  /// Makes sure the overflow has an entry at `index`, replacing it with a larger buffer if it
  /// is full. Call with `lock` held and the version odd.
  private func makeRoomInOverflow(for index: Int) {
    let current = overflow.load(ordering: .relaxed)
    let capacity = current == 0 ? 0 : EntryBuffer(bits: current).capacity
    guard index == capacity else { return }
    let larger = EntryBuffer(
      capacity: EntryBuffer.capacity(after: capacity), replacing: current)
    if current != 0 { larger.copy(from: EntryBuffer(bits: current), count: index) }
    // Released, so that a reader who loads the new address (acquiring) also sees the
    // buffer's capacity and zeroed entries, and never scans past its end.
    overflow.store(larger.bits, ordering: .releasing)
  }

  private func beginWrite() { version.beginWrite() }

  private func endWrite() { version.endWrite() }

}
