internal import AffixRuntimeShims
import Synchronization

// The reads of a host's values that take no lock, whole: the free functions every read through
// the shared table goes through, from the table's slot to the storage's entries (see "The read
// of an inline value" and "Reading objects without a lock" in Docs/Internals/Reads.md). The
// storage's own halves are in AssociationStorage.swift, the read sections in ReadSections.swift.

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

/// The value stored under `key` on `host`, a host without storage of its own in the view, for a
/// key whose payloads are objects, boxes or weak boxes; nil when there is none.
@inlinable @inline(__always)
func objectValue<Value>(for key: KeyHandle<Value>, of host: AnyObject) -> Value? {
  // A value of a word (a class, an optional class, or a boxed array) takes the retaining path,
  // which decodes every representation; wider values are always boxed and are copied out of
  // their box. Decided by the value's size, which the compiler knows before anything else, so
  // that the copying path, which calls a closure, is gone before the optimizer places the
  // caller's retains: with it in the function, the caller retains and releases the host around
  // every object read (which `core.get_object` would show).
  guard MemoryLayout<Value>.size > MemoryLayout<UInt>.size else {
    let bits = retainedPayloadBits(for: key.id, of: host)
    return bits == 0 ? nil : key.decode(retainedBits: bits)
  }
  return withUnsafeTemporaryAllocation(of: Value?.self, capacity: 1) { buffer in
    let value = buffer.baseAddress.unsafelyUnwrapped
    value.initialize(to: nil)
    // Initialized over nil, never assigned: the body releases nothing.
    withPayloadBits(for: key.id, of: host) {
      value.initialize(to: KeyHandle<Value>.unboxed(bits: $0))
    }
    return value.move()
  }
}

/// Finds the storage of `host` and calls its `withPayloadBits(for:_:)`; see
/// ``retainedPayloadBits(for:of:)``.
@usableFromInline @_effects(releasenone)
func withPayloadBits(for keyID: UInt, of host: AnyObject, _ body: (UInt) -> Void) {
  let bits = HostTable.storageBits(of: host)
  if bits != 0 {
    // Nonzero storage bits are the address of a storage the table holds.
    Unmanaged<AssociationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.withPayloadBits(for: keyID, body) }
  } else if let owner = host as? any AssociationOwner {
    owner.associationStorage.withPayloadBits(for: keyID, body)
  }
}

/// Stores the inline bits of a key whose values are inline on `host` in place, without the
/// storage's lock (see `AssociationStorage.storeInPlace(_:for:)`); false, having stored nothing,
/// when the host has no storage yet, or no inline entry holds a value of the key, or the
/// storage has observers: the caller then writes the usual way.
///
/// A free function that releases nothing and says so, as ``inlineBits(for:of:)`` does (the
/// owner check retains and releases the host in balance), so that a caller whose host sits in
/// memory need not retain the host around the call.
@usableFromInline @_effects(releasenone)
func storedInPlace(_ bits: UInt, for keyID: UInt, of host: AnyObject) -> Bool {
  let storageBits = HostTable.storageBits(of: host)
  if storageBits != 0 {
    // Nonzero storage bits are the address of a storage the table holds.
    return Unmanaged<AssociationStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: storageBits).unsafelyUnwrapped
    )._withUnsafeGuaranteedRef { $0.storeInPlace(bits, for: keyID) != nil }
  }
  guard let owner = host as? any AssociationOwner else { return false }
  return owner.associationStorage.storeInPlace(bits, for: keyID) != nil
}

/// ``storedInPlace(_:for:of:)`` as a compare-and-store, for `update`: true if the entry held
/// `expected` and now holds `bits`, false if it held other bits, nil if the host has no such
/// entry or its storage has observers (see `AssociationStorage.exchangedInPlace(_:with:for:)`).
@usableFromInline @_effects(releasenone)
func exchangedInPlace(_ expected: UInt, with bits: UInt, for keyID: UInt, of host: AnyObject)
  -> Bool?
{
  let storageBits = HostTable.storageBits(of: host)
  if storageBits != 0 {
    // Nonzero storage bits are the address of a storage the table holds.
    return Unmanaged<AssociationStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: storageBits).unsafelyUnwrapped
    )._withUnsafeGuaranteedRef { $0.exchangedInPlace(expected, with: bits, for: keyID) }
  }
  guard let owner = host as? any AssociationOwner else { return nil }
  return owner.associationStorage.exchangedInPlace(expected, with: bits, for: keyID)
}

/// Finds the storage of `host` and calls its `retainedPayloadBits(for:)`.
///
/// A free function that releases nothing and says so, as ``inlineBits(for:of:)`` does: a
/// caller whose host sits in memory then neither retains it around the call nor casts it on
/// its own path to an owner's storage. The caller holds the host, so the storage found in the
/// table cannot be swept during the read.
@usableFromInline @_effects(releasenone)
func retainedPayloadBits(for keyID: UInt, of host: AnyObject) -> UInt {
  let bits = HostTable.storageBits(of: host)
  if bits != 0 {
    // Nonzero storage bits are the address of a storage the table holds.
    return Unmanaged<AssociationStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
    )._withUnsafeGuaranteedRef { $0.retainedPayloadBits(for: keyID) }
  }
  guard let owner = host as? any AssociationOwner else { return 0 }
  return owner.associationStorage.retainedPayloadBits(for: keyID)
}
