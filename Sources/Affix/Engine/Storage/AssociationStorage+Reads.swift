internal import AffixRuntimeShims
// Public: `@inlinable` code below uses `Atomic` (see AssociationStorage.swift).
public import Synchronization

/// The storage's reads: lock-free where the version allows, under `lock` where not.
extension AssociationStorage {
  /// The payload bits under `keyID`, or nil: the inline entries, then the overflow.
  ///
  /// Lock-free callers validate the result with the version. Stays in bounds on a torn read:
  /// the overflow address is published after its buffer is initialized, and every buffer the
  /// storage ever had is still allocated.
  @inlinable @inline(__always)
  func find(_ keyID: UInt) -> UInt? {
    // No key ID is 0 or has the absent bit, so a free or emptied entry never matches.
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

  /// The inline bits stored under `keyID`, a key whose values are inline, read without a lock,
  /// or nil.
  ///
  /// An inline entry that holds the key keeps it (see the note on the fields), so a match is
  /// the key's payload. The key never moves between an inline entry and the overflow without
  /// being removed in between, so a miss in both inline entries followed by a miss in the
  /// overflow (validated by the version) is a moment without a value. Inlined into the caller;
  /// the overflow's scan stays out of line.
  @inlinable @inline(__always)
  func inlineBits(for keyID: UInt) -> UInt? {
    // Acquiring, so that the payload is at least the one stored before the key word.
    if firstKeyID.load(ordering: .acquiring) == keyID {
      return firstPayload.load(ordering: .relaxed)
    }
    if secondKeyID.load(ordering: .acquiring) == keyID {
      return secondPayload.load(ordering: .relaxed)
    }
    if overflow.load(ordering: .relaxed) == 0 { return nil }
    return overflowBits(for: keyID)
  }

  /// The payload bits under `keyID` in the overflow, read without a lock and validated by the
  /// version, or nil. Out of line, so that the loop stays out of every caller.
  @usableFromInline
  func overflowBits(for keyID: UInt) -> UInt? {
    let before = version.load(ordering: .acquiring)
    // Acquiring, so that the buffer's capacity and zeroed entries are seen with its address.
    // Never 0: the caller saw an overflow, and a storage keeps its overflow once it has one.
    let found = EntryBuffer.find(keyID, in: overflow.load(ordering: .acquiring))
    atomicMemoryFence(ordering: .acquiring)
    // Versions only grow, so this holds only if the version was even and has not changed.
    if version.load(ordering: .relaxed) == before & ~1 { return found }
    return inlineBitsCarefully(for: keyID)
  }

  /// The payload bits stored under `keyID`, or nil: a few passes validated by the version, then
  /// the lock. The inline read's path when a writer got in its way, and every object read's
  /// (inside its read section, where taking the lock is safe: a writer never waits for a grace
  /// period).
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

  /// The payload bits under `keyID` under the lock; in the child of a fork, without it when a
  /// thread that does not exist there may hold it (`payloadBitsInChildOfFork(for:)`).
  @usableFromInline
  func lockedPayloadBits(for keyID: UInt) -> UInt? {
    ReadSafety.checkThreadIsNotInsideWrite()
    if ForkHandlers.isChild, case .found(let bits) = payloadBitsInChildOfFork(for: keyID) {
      return bits
    }
    return lock.withLock { find(keyID) }
  }

  /// The object stored under `keyID`, retained, or nil.
  @inlinable
  func object(for keyID: UInt) -> Payload? {
    let bits = retainedPayloadBits(for: keyID)
    return bits == 0 ? nil : Payload(adoptingRetained: bits)
  }

  /// The value stored under `key`, whose payloads are objects, boxes or weak boxes, or nil.
  @inlinable @inline(__always)
  func value<Value>(for key: KeyHandle<Value>) -> Value? {
    // Chosen by size as `objectValue(for:of:)` chooses, and for the same reason: a value of a
    // word is retained in the section (the decode handles every representation); a wider one,
    // always boxed, is copied out inside it, and the box is never retained.
    guard MemoryLayout<Value>.size > MemoryLayout<UInt>.size else {
      let bits = retainedPayloadBits(for: key.id)
      return bits == 0 ? nil : key.decode(retainedBits: bits)
    }
    return withUnsafeTemporaryAllocation(of: Value?.self, capacity: 1) { buffer in
      let value = buffer.baseAddress.unsafelyUnwrapped
      value.initialize(to: nil)
      // Initialized over nil, never assigned: the body releases nothing.
      withPayloadBits(for: key.id) { value.initialize(to: KeyHandle<Value>.unboxed(bits: $0)) }
      return value.move()
    }
  }

  /// Calls `body` with the payload bits under `keyID`, a key whose payloads are boxes, if it
  /// has a value, inside a read section (see `retainedPayloadBits(for:)`), so that `body` may
  /// copy the value out of the box without retaining it. `body` must not run user code or
  /// release anything.
  @usableFromInline @_effects(releasenone)
  func withPayloadBits(for keyID: UInt, _ body: (UInt) -> Void) {
    let reader = affix_read_begin()
    if let found = inlineBitsCarefully(for: keyID) { body(found) }
    // After the copy: `affix_read_end` starts with a compiler barrier.
    affix_read_end(reader)
  }

  /// The payload bits under `keyID`, a key whose payloads are objects, with a reference the
  /// caller now owns; 0 when the key has no value. Takes no lock unless writers keep getting in
  /// the way.
  ///
  /// The bits are loaded and the object retained inside a read section (`affix_read_begin`):
  /// while it lasts, an object that a writer replaces or removes stays allocated, because the
  /// writer retires the storage's reference to it (see `Retirement.retire(_:)`) and a
  /// retired reference is released only after every section that began before the retirement
  /// has ended. The bits are a consistent snapshot, validated by the version before the
  /// retain: an entry freed and taken by another key between the loads of its key word and its
  /// payload would otherwise hand over that key's payload, perhaps an inline one.
  ///
  /// It releases nothing and says so (`releasenone`), so that a caller whose host sits in
  /// memory need not retain the host around the call, as around an inline read.
  @usableFromInline @_effects(releasenone)
  func retainedPayloadBits(for keyID: UInt) -> UInt {
    let reader = affix_read_begin()
    let found = inlineBitsCarefully(for: keyID)
    if let found {
      // Object payload bits are never 0.
      _ = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: found).unsafelyUnwrapped)
        .retain()
    }
    // After the retain: `affix_read_end` starts with a compiler barrier that keeps the retain
    // from being moved past it.
    affix_read_end(reader)
    return found ?? 0
  }
}
