internal import AffixRuntimeShims
import Synchronization

/// The in-place stores: an inline value written over one of the same key under the inline
/// entries' one-word lock, with no storage lock (see Docs/Decisions/0003-inline-value-path.md).
extension AssociationStorage {
  /// Stores the inline bits of a key whose values are inline in the inline entry that holds
  /// the key's value, without taking `lock`, and returns the bits it replaced; nil, having
  /// stored nothing, when no inline entry holds a value of the key or the storage has
  /// observers: the caller takes the lock instead.
  ///
  /// Such an entry keeps its key (see the note on the fields), and every writer that changes
  /// its payload or marks it empty holds `inlineEntryLock`, so under that lock an entry whose
  /// key word is the key's ID holds the key's value until the store. Readers need nothing
  /// more: they read the key word, then the payload, one atomic word. The storage's version is
  /// left alone; it guards the overflow and entries that change keys. An observer added
  /// meanwhile is added concurrently with this write and may miss it, as with any write that
  /// races with `observe`.
  ///
  /// With `expected`, stores only if the entry holds `expected` (a compare-and-store for
  /// `update`), and returns the bits it found either way: the store happened if they are
  /// `expected`.
  @inline(__always)
  func storeInPlace(_ bits: UInt, for keyID: UInt, ifHolding expected: UInt? = nil) -> UInt? {
    guard !isObserved.load(ordering: .relaxed) else { return nil }
    let slot: Int
    if firstKeyID.load(ordering: .relaxed) == keyID {
      slot = 0
    } else if secondKeyID.load(ordering: .relaxed) == keyID {
      slot = 1
    } else {
      return nil
    }
    lockInlineEntries()
    defer { unlockInlineEntries() }
    // Acquiring, so that this store follows the one that gave the entry its key or value.
    let keyWord =
      slot == 0 ? firstKeyID.load(ordering: .acquiring) : secondKeyID.load(ordering: .acquiring)
    guard keyWord == keyID else { return nil }
    let old = inlinePayloadBits(slot)
    if let expected, old != expected { return old }
    if slot == 0 {
      firstPayload.store(bits, ordering: .releasing)
    } else {
      secondPayload.store(bits, ordering: .releasing)
    }
    return old
  }

  @inline(__always)
  func lockInlineEntries() {
    if !inlineEntryLock.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockInlineEntriesContended()
    }
  }

  /// Spins, then yields, then sleeps: a holder runs a handful of instructions, unless it was
  /// preempted. Sleeping matters for a waiter of real-time priority on the holder's CPU: a
  /// yield hands that CPU back to the waiter itself, and only a sleep lets the holder run.
  private func lockInlineEntriesContended() {
    var attempts = 0
    while true {
      if inlineEntryLock.load(ordering: .relaxed) == 0,
        inlineEntryLock.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
      attempts += 1
      if attempts < 64 {
        affix_spin_pause()
      } else if attempts < 128 {
        affix_yield()
      } else {
        affix_sleep_microseconds(50)
      }
    }
  }

  @inline(__always)
  func unlockInlineEntries() {
    inlineEntryLock.store(0, ordering: .releasing)
  }

  /// ``storeInPlace(_:for:)`` for a caller outside the module, out of line; whether it
  /// stored. It releases nothing and says so, as the inline read does.
  @usableFromInline @_effects(releasenone)
  func storedInPlace(_ bits: UInt, for keyID: UInt) -> Bool {
    storeInPlace(bits, for: keyID) != nil
  }

  /// ``storeInPlace(_:for:ifHolding:)`` with `expected`, for `update` in a caller outside the
  /// module, out of line: true if it stored, false if the entry holds other bits (the caller
  /// reads again), nil if it may not store in place (the caller takes the lock).
  @usableFromInline @_effects(releasenone)
  func exchangedInPlace(_ expected: UInt, with bits: UInt, for keyID: UInt) -> Bool? {
    storeInPlace(bits, for: keyID, ifHolding: expected).map { $0 == expected }
  }
}
