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
  /// Even while the entries are consistent, odd while a writer changes them.
  @usableFromInline
  let version = Atomic<UInt>(0)

  /// The entry buffer's base address. Never 0: a storage is created with room for two
  /// entries, so that a reader need not check.
  @usableFromInline
  let buffer = Atomic<UInt>(EntryBuffer(capacity: 2).bits)

  /// The number of entries in `buffer`.
  @usableFromInline
  let count = Atomic<Int>(0)

  @usableFromInline
  let lock = SpinLock()

  // Observers and retired buffers: only touched while `lock` is held. Separate fields, not
  // one struct, so that checking for observers copies nothing.

  @exclusivity(unchecked)
  nonisolated(unsafe) var observers: [Observer] = []

  /// Observer IDs, shared by all storages so that a storage needs no counter of its own.
  private static let observerIDs = Atomic<UInt>(0)

  /// Buffers replaced by larger ones. A lock-free reader may still be scanning one, so they
  /// are freed only with the storage, which no reader can be using then.
  @exclusivity(unchecked)
  nonisolated(unsafe) var retired: [EntryBuffer] = []

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
    let entries = EntryBuffer(bits: buffer.load(ordering: .relaxed))
    entries.releasePayloads(count: count.load(ordering: .relaxed))
    entries.deallocate()
    for retired in retired { retired.deallocate() }
    if hostAddress != 0 {
      affix_unpin(UnsafeMutableRawPointer(bitPattern: hostAddress))
    }
  }

  // MARK: Reading

  /// The inline bits stored under `keyID`, read without a lock, or nil.
  ///
  /// One optimistic pass, validated by the version, inlined into the caller; the careful
  /// path behind it stays out of line.
  @inlinable @inline(__always)
  func inlineBits(for keyID: UInt) -> UInt? {
    let before = version.load(ordering: .acquiring)
    let found = EntryBuffer.find(keyID, in: buffer.load(ordering: .relaxed))
    atomicMemoryFence(ordering: .acquiring)
    if before & 1 == 0, version.load(ordering: .relaxed) == before { return found }
    return inlineBitsCarefully(for: keyID)
  }

  /// The inline bits stored under `keyID`, or nil, when a writer got in the way of the first
  /// pass: a few more passes, then the lock.
  @usableFromInline
  func inlineBitsCarefully(for keyID: UInt) -> UInt? {
    for _ in 0..<3 {
      let before = version.load(ordering: .acquiring)
      if before & 1 == 0 {
        let found = EntryBuffer.find(keyID, in: buffer.load(ordering: .relaxed))
        atomicMemoryFence(ordering: .acquiring)
        if version.load(ordering: .relaxed) == before { return found }
      }
    }
    return lockedPayloadBits(for: keyID)
  }

  @usableFromInline
  func lockedPayloadBits(for keyID: UInt) -> UInt? {
    lock.withLock {
      EntryBuffer.find(keyID, in: buffer.load(ordering: .relaxed))
    }
  }

  /// The object stored under `keyID`, retained before the lock is released, or nil.
  @inlinable
  func object(for keyID: UInt) -> Payload? {
    lock.withLock {
      guard
        let bits = EntryBuffer.find(keyID, in: buffer.load(ordering: .relaxed))
      else { return nil }
      return Payload(retaining: bits)
    }
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
  /// When the value already there wins, `payload` is handed back as `loser` so that the caller
  /// releases it after unlocking.
  @usableFromInline
  func insertIfAbsent(_ payload: Payload, for keyID: UInt) -> (
    stored: Payload, inserted: Bool, observers: [@Sendable (Payload?) -> Void]?
  ) {
    lock.withLock {
      let current = buffer.load(ordering: .relaxed)
      if let bits = EntryBuffer.find(keyID, in: current) {
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
      let current = buffer.load(ordering: .relaxed)
      guard let bits = EntryBuffer.find(keyID, in: current),
        bits == expected.bits
      else { return nil }
      return replace(keyID, with: payload)
    }
  }

  /// Writes one entry under the seqlock. The storage's reference to `payload` is taken here;
  /// its reference to the replaced payload is handed back.
  private func replace(_ keyID: UInt, with payload: Payload?) -> Payload? {
    var entries = EntryBuffer(bits: buffer.load(ordering: .relaxed))
    let count = self.count.load(ordering: .relaxed)
    let index = entries.index(of: keyID, count: count)
    if index == nil, payload == nil { return nil }
    beginWrite()
    defer { endWrite() }
    if let index {
      let old = Payload(adopting: entries.payloadBits(at: index), for: keyID)
      if let payload {
        entries.setPayloadBits(payload.retainedBits(for: keyID), at: index)
      } else {
        let last = count - 1
        if index != last {
          entries.setKeyID(entries.keyID(at: last), at: index)
          entries.setPayloadBits(entries.payloadBits(at: last), at: index)
        }
        // Entries past the count stay zero, so that a reader may scan the whole buffer.
        entries.setKeyID(0, at: last)
        entries.setPayloadBits(0, at: last)
        self.count.store(last, ordering: .relaxed)
      }
      return old
    }
    guard let payload else { return nil }
    if count == entries.capacity {
      let larger = EntryBuffer(capacity: entries.capacity * 2)
      larger.copy(from: entries, count: count)
      retired.append(entries)
      entries = larger
      buffer.store(larger.bits, ordering: .relaxed)
    }
    entries.setKeyID(keyID, at: count)
    entries.setPayloadBits(payload.retainedBits(for: keyID), at: count)
    self.count.store(count + 1, ordering: .relaxed)
    return nil
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
      let entries = EntryBuffer(bits: buffer.load(ordering: .relaxed))
      return (0..<count.load(ordering: .relaxed)).map { index in
        let keyID = entries.keyID(at: index)
        guard keyID & KeyID.representationMask == PayloadRepresentation.weak.rawValue else {
          return (keyID, nil)
        }
        return (keyID, Payload(retaining: entries.payloadBits(at: index)).storedObject as? WeakBox)
      }
    }
    return listed.compactMap { keyID, weakBox in
      weakBox.map { $0.object == nil } == true ? nil : keyID
    }
  }

  /// The payloads stored under capability types rather than keys, retained.
  func capabilityPayloads() -> [Payload] {
    lock.withLock {
      let entries = EntryBuffer(bits: buffer.load(ordering: .relaxed))
      return (0..<count.load(ordering: .relaxed)).compactMap { index in
        let keyID = entries.keyID(at: index)
        guard keyID & KeyID.serialBit == 0 else { return nil }
        return Payload(retaining: entries.payloadBits(at: index))
      }
    }
  }

  var entryCount: Int {
    count.load(ordering: .relaxed)
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
