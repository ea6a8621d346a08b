internal import AffixRuntimeShims
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
/// Writers take the storage's lock, which is never held while user code runs: replaced values
/// are released, factories and observers are called, only after unlocking. Values of trivial
/// types up to a word (`Int`, `Double`, `Bool`, small enums) are stored inline and read without
/// any lock; other values are read under the lock and retained before it is released.
public final class AssociationStorage: Sendable {
  // The fields a reader touches come first and together: the version, the two inline entries
  // and the overflow's address share the object's first cache line or two, and a read of an
  // inline entry chases no pointer.

  /// Even while the entries are consistent, odd while a writer changes them.
  @usableFromInline
  let version = Atomic<UInt>(0)

  /// The first entry's key ID, or 0 while the storage has no entry.
  @usableFromInline
  let firstKeyID = Atomic<UInt>(0)

  /// The first entry's payload bits, or 0.
  @usableFromInline
  let firstPayload = Atomic<UInt>(0)

  /// The second entry's key ID, or 0 while the storage has fewer than two entries.
  @usableFromInline
  let secondKeyID = Atomic<UInt>(0)

  /// The second entry's payload bits, or 0.
  @usableFromInline
  let secondPayload = Atomic<UInt>(0)

  /// The base address of the ``EntryBuffer`` that holds the entries from the third on, or 0
  /// until a third entry first arrives. Once allocated it is kept, emptied or not, and each
  /// larger buffer links to the one it replaced.
  @usableFromInline
  let overflow = Atomic<UInt>(0)

  /// The number of entries, the inline ones included. Four bytes, so that it shares a word
  /// with `lock`.
  let count = Atomic<UInt32>(0)

  @usableFromInline
  let lock = SpinLock()

  /// Observers of this storage's keys. Only touched while `lock` is held.
  @exclusivity(unchecked)
  nonisolated(unsafe) var observers: [Observer] = []

  /// Observer IDs, shared by all storages so that a storage needs no counter of its own.
  private static let observerIDs = Atomic<UInt>(0)

  /// The address of the host this storage was created for by the shared table, or 0 for an
  /// owner's storage.
  ///
  /// Such a storage pins its host (see `affix_pin`): the host's memory stays allocated while
  /// the storage lives, so no other object can appear at `hostAddress`, but its deinit still
  /// runs on time.
  let hostAddress: UInt

  struct Observer {
    var id: UInt
    var keyID: UInt
    var notify: @Sendable (Payload?) -> Void
  }

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
    for index in 0..<entryCount where !KeyID.isInline(keyID(at: index)) {
      // Object payloads are retained addresses.
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: payloadBits(at: index))!)
        .release()
    }
    let overflow = overflow.load(ordering: .relaxed)
    if overflow != 0 { EntryBuffer(bits: overflow).deallocateChain() }
    if hostAddress != 0 {
      affix_unpin(UnsafeMutableRawPointer(bitPattern: hostAddress))
    }
  }

  // MARK: Reading

  /// The payload bits under `keyID`, or nil: the inline entries, then the overflow.
  ///
  /// Lock-free callers validate the result with the version. Stays in bounds on a torn read:
  /// the overflow address is published after its buffer is initialized, and every buffer the
  /// storage ever had is still allocated.
  @inlinable @inline(__always)
  func find(_ keyID: UInt) -> UInt? {
    // No key has ID 0, so an empty inline entry never matches.
    if firstKeyID.load(ordering: .relaxed) == keyID {
      return firstPayload.load(ordering: .relaxed)
    }
    if secondKeyID.load(ordering: .relaxed) == keyID {
      return secondPayload.load(ordering: .relaxed)
    }
    let overflow = overflow.load(ordering: .acquiring)
    guard overflow != 0 else { return nil }
    return EntryBuffer.find(keyID, in: overflow)
  }

  /// The inline bits stored under `keyID`, read without a lock, or nil.
  ///
  /// One optimistic pass, validated by the version, inlined into the caller; the careful
  /// path behind it stays out of line.
  @inlinable @inline(__always)
  func inlineBits(for keyID: UInt) -> UInt? {
    let before = version.load(ordering: .acquiring)
    let found: UInt?
    if firstKeyID.load(ordering: .relaxed) == keyID {
      found = firstPayload.load(ordering: .relaxed)
    } else if secondKeyID.load(ordering: .relaxed) == keyID {
      found = secondPayload.load(ordering: .relaxed)
    } else if overflow.load(ordering: .relaxed) == 0 {
      found = nil
    } else {
      return overflowBits(for: keyID, since: before)
    }
    atomicMemoryFence(ordering: .acquiring)
    // Versions only grow, so this holds only if the version was even and has not changed.
    if version.load(ordering: .relaxed) == before & ~1 { return found }
    return inlineBitsCarefully(for: keyID)
  }

  /// The rest of ``inlineBits(for:)``'s pass when the inline entries hold other keys: the
  /// overflow's scan, validated against the version read before the inline entries were.
  /// Out of line, so that the loop stays out of every caller.
  @usableFromInline
  func overflowBits(for keyID: UInt, since before: UInt) -> UInt? {
    // Acquiring, so that the buffer's capacity and zeroed entries are seen with its address.
    // Never 0: the caller saw an overflow, and a storage keeps its overflow once it has one.
    let found = EntryBuffer.find(keyID, in: overflow.load(ordering: .acquiring))
    atomicMemoryFence(ordering: .acquiring)
    if version.load(ordering: .relaxed) == before & ~1 { return found }
    return inlineBitsCarefully(for: keyID)
  }

  /// The inline bits stored under `keyID`, or nil, when a writer got in the way of the first
  /// pass: a few more passes, then the lock.
  @usableFromInline
  func inlineBitsCarefully(for keyID: UInt) -> UInt? {
    for _ in 0..<3 {
      let before = version.load(ordering: .acquiring)
      if before & 1 == 0 {
        let found = find(keyID)
        atomicMemoryFence(ordering: .acquiring)
        if version.load(ordering: .relaxed) == before { return found }
      }
    }
    return lockedPayloadBits(for: keyID)
  }

  @usableFromInline
  func lockedPayloadBits(for keyID: UInt) -> UInt? {
    lock.withLock { find(keyID) }
  }

  /// The object stored under `keyID`, retained before the lock is released, or nil.
  @inlinable
  func object(for keyID: UInt) -> Payload? {
    lock.withLock {
      guard let bits = find(keyID) else { return nil }
      return Payload(retaining: bits)
    }
  }

  // MARK: Entries by index, for writers (under `lock`) and the deinit

  /// Entries 0 and 1 are the inline ones; entry *i* from 2 on is the overflow's *i* - 2.
  @inline(__always)
  private func keyID(at index: Int) -> UInt {
    switch index {
    case 0: firstKeyID.load(ordering: .relaxed)
    case 1: secondKeyID.load(ordering: .relaxed)
    default: EntryBuffer(bits: overflow.load(ordering: .relaxed)).keyID(at: index - 2)
    }
  }

  @inline(__always)
  private func payloadBits(at index: Int) -> UInt {
    switch index {
    case 0: firstPayload.load(ordering: .relaxed)
    case 1: secondPayload.load(ordering: .relaxed)
    default: EntryBuffer(bits: overflow.load(ordering: .relaxed)).payloadBits(at: index - 2)
    }
  }

  @inline(__always)
  private func setEntry(_ keyID: UInt, _ payloadBits: UInt, at index: Int) {
    switch index {
    case 0:
      firstKeyID.store(keyID, ordering: .relaxed)
      firstPayload.store(payloadBits, ordering: .relaxed)
    case 1:
      secondKeyID.store(keyID, ordering: .relaxed)
      secondPayload.store(payloadBits, ordering: .relaxed)
    default:
      let buffer = EntryBuffer(bits: overflow.load(ordering: .relaxed))
      buffer.setKeyID(keyID, at: index - 2)
      buffer.setPayloadBits(payloadBits, at: index - 2)
    }
  }

  @inline(__always)
  private func setPayloadBits(_ payloadBits: UInt, at index: Int) {
    switch index {
    case 0: firstPayload.store(payloadBits, ordering: .relaxed)
    case 1: secondPayload.store(payloadBits, ordering: .relaxed)
    default:
      EntryBuffer(bits: overflow.load(ordering: .relaxed))
        .setPayloadBits(payloadBits, at: index - 2)
    }
  }

  @inline(__always)
  private func index(of keyID: UInt) -> Int? {
    (0..<entryCount).first { self.keyID(at: $0) == keyID }
  }

  // MARK: Writing

  /// Stores `payload` (nil removes) and returns what it replaced, to be released after
  /// unlocking, with the observers to notify.
  @usableFromInline
  func exchange(_ payload: Payload?, for keyID: UInt) -> (
    old: Payload?, observers: [@Sendable (Payload?) -> Void]?
  ) {
    lock.withLock {
      let observers = observersOf(keyID)
      let old = replace(keyID, with: payload)
      return (old, observers)
    }
  }

  /// Stores `payload` unless a value is already there, and returns the one that stays.
  ///
  /// When a value is already there, `inserted` is false and `payload` stays the caller's, to be
  /// released after unlocking when the caller drops it.
  @usableFromInline
  func insertIfAbsent(_ payload: Payload, for keyID: UInt) -> (
    stored: Payload, inserted: Bool, observers: [@Sendable (Payload?) -> Void]?
  ) {
    lock.withLock {
      if let bits = find(keyID) {
        return (Payload(copying: bits, for: keyID), false, nil)
      }
      _ = replace(keyID, with: payload)
      return (payload, true, observersOf(keyID))
    }
  }

  /// Replaces the payload under `keyID` only if it is still `expected`; returns what was removed.
  @usableFromInline
  func exchangeIfSame(_ expected: Payload, with payload: Payload?, for keyID: UInt)
    -> Payload?
  {
    lock.withLock {
      guard let bits = find(keyID), bits == expected.bits else { return nil }
      return replace(keyID, with: payload)
    }
  }

  /// Writes one entry under the seqlock. The storage's reference to `payload` is taken here;
  /// its reference to the replaced payload is handed back.
  private func replace(_ keyID: UInt, with payload: Payload?) -> Payload? {
    let count = entryCount
    let index = index(of: keyID)
    if index == nil, payload == nil { return nil }
    beginWrite()
    defer { endWrite() }
    if let index {
      let old = Payload(adopting: payloadBits(at: index), for: keyID)
      if let payload {
        setPayloadBits(payload.retainedBits(for: keyID), at: index)
      } else {
        // The last entry fills the hole, which may move it from the overflow into an inline
        // entry; the odd version covers both stores.
        let last = count - 1
        if index != last {
          setEntry(self.keyID(at: last), payloadBits(at: last), at: index)
        }
        // Entries past the count stay zero, so that a reader may scan the whole buffer and
        // an empty inline entry never matches.
        setEntry(0, 0, at: last)
        self.count.store(UInt32(last), ordering: .relaxed)
      }
      return old
    }
    guard let payload else { return nil }
    if count >= 2 { makeRoomInOverflow(for: count - 2) }
    setEntry(keyID, payload.retainedBits(for: keyID), at: count)
    self.count.store(UInt32(count + 1), ordering: .relaxed)
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

  private func beginWrite() {
    let current = version.load(ordering: .relaxed)
    version.store(current &+ 1, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
  }

  private func endWrite() {
    let current = version.load(ordering: .relaxed)
    version.store(current &+ 1, ordering: .releasing)
  }

  // MARK: Listing and observing

  /// The keys with a value, leaving out weak keys whose value has died.
  func keyIDs() -> [UInt] {
    // Weak boxes are checked after unlocking: a weak load takes a strong reference whose
    // release could be the object's last, and run its deinit.
    let listed = lock.withLock { () -> [(UInt, WeakBox?)] in
      (0..<entryCount).map { index in
        let keyID = keyID(at: index)
        guard keyID & KeyID.representationMask == PayloadRepresentation.weak.rawValue else {
          return (keyID, nil)
        }
        return (keyID, Payload(retaining: payloadBits(at: index)).storedObject as? WeakBox)
      }
    }
    return listed.compactMap { keyID, weakBox in
      weakBox.map { $0.object == nil } == true ? nil : keyID
    }
  }

  /// The payloads stored under capability types rather than keys, retained.
  func capabilityPayloads() -> [Payload] {
    lock.withLock {
      (0..<entryCount).compactMap { index in
        let keyID = keyID(at: index)
        guard keyID & KeyID.serialBit == 0 else { return nil }
        return Payload(retaining: payloadBits(at: index))
      }
    }
  }

  var entryCount: Int {
    Int(count.load(ordering: .relaxed))
  }

  func addObserver(for keyID: UInt, _ notify: @escaping @Sendable (Payload?) -> Void) -> UInt {
    let id = Self.observerIDs.add(1, ordering: .relaxed).newValue
    lock.withLock {
      observers.append(Observer(id: id, keyID: keyID, notify: notify))
    }
    return id
  }

  func removeObserver(_ id: UInt) {
    // The closure may capture user objects: it is released after unlocking.
    let removed = lock.withLock { () -> Observer? in
      guard let index = observers.firstIndex(where: { $0.id == id }) else {
        return nil
      }
      return observers.remove(at: index)
    }
    _ = removed
  }
}

extension AssociationStorage {
  /// The observers to notify of a change to `keyID`, copied so they run after unlocking; nil
  /// when there are none. Call with `lock` held.
  @usableFromInline
  func observersOf(_ keyID: UInt) -> [@Sendable (Payload?) -> Void]? {
    guard !observers.isEmpty else { return nil }
    let matching = observers.filter { $0.keyID == keyID }.map(\.notify)
    return matching.isEmpty ? nil : matching
  }
}
