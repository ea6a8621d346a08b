import Dispatch
import Synchronization

/// The table of hosts on the weak path (see ``HostKind``): hosts whose reference counts the core
/// must not touch.
///
/// An entry holds its host through a Swift `weak` reference and is valid only while that
/// reference reads the very host a caller holds. No pin keeps a dead host's address, so an
/// object allocated later at the same address finds an entry whose reference reads nil, treats
/// it as absent and replaces it: correct by construction, whoever counts the host's references.
/// Values are released when a sweep finds the reference nil, or, for a host with a deallocation
/// hook (an Objective-C object on Apple platforms, its twin in `AFFIX_HOST_MODE=hooked`), when
/// the host deallocates (see `DeallocationHook.swift`); a sweep never removes such a host's
/// entry, as the host may still be reading it in its `deinit`.
///
/// Reads take a lock and a weak load, several times the pinned path's cost; every read of the
/// pinned path that misses checks ``isEmpty`` first, one atomic load.
enum WeakHostTable {
  // `@unchecked Sendable`: the weak reference is set once, at init, and only loaded after,
  // which the runtime does atomically; a caller that gets the host back holds its own reference
  // and answers for its isolation.
  final class Entry: @unchecked Sendable {
    // A Swift `weak` reference: the host's own class decides how it is kept (a side table,
    // or an Objective-C weak reference), which is the point of this path.
    private weak let host: AnyObject?

    /// The table's reference to the storage, which leaves the table with the entry and goes
    /// to the release queue. Not a strong property: an entry a reader still holds after its
    /// removal would otherwise release the storage, and its values, on that reader's thread.
    let storageReference: Unmanaged<AssociationStorage>

    /// Whether a deallocation hook removes this entry as its host deallocates: no other object
    /// can then ever meet the entry at the host's address, and no sweep may remove it, since
    /// the host reads it through its `deinit`, when its weak reference already reads nil. Set
    /// before the entry enters the table, so whoever finds the entry there sees it; the hook
    /// is attached right after, while the caller still holds the host.
    let isRemovedAtDeallocation: Bool

    /// Takes the table's reference to `storage`; `release()` gives it back unless the entry
    /// enters the table. Ask ``DeallocationHooks/weakReferenceRefusal(of:)`` first: forming
    /// the weak reference to an Objective-C object that refuses one stops the process.
    init(host: AnyObject, storage: AssociationStorage, isRemovedAtDeallocation: Bool) {
      DeallocationHooks.checkTwinAllowsWeakReference(to: host)
      self.host = host
      self.storageReference = Unmanaged.passRetained(storage)
      self.isRemovedAtDeallocation = isRemovedAtDeallocation
    }

    /// The storage. Only while the entry is in the table, or was seen there by a caller that
    /// holds its live host: the table releases it only after the host is gone.
    var storage: AssociationStorage { storageReference.takeUnretainedValue() }

    /// Whether the entry belongs to `host`, which the caller holds at the entry's address.
    ///
    /// Where a deallocation hook removes the entry as its host goes (Objective-C objects on
    /// Apple platforms, twin hosts in `AFFIX_HOST_MODE=hooked`), no other object can meet it,
    /// so the address settles it, with no weak load: that is the common case there, and it
    /// also lets a host keep its values through its own deinit, when every weak reference to
    /// it reads nil. Otherwise (`AFFIX_HOST_MODE=weak`, natively counted hosts) the entry
    /// could be a dead predecessor's not yet swept, so the weak reference must read `host`;
    /// the load's strong reference is never the host's last, as the caller holds it.
    func belongs(to host: AnyObject) -> Bool {
      isRemovedAtDeallocation || self.host === host
    }

    /// Whether the host is gone. The weak load takes a strong reference to a live host, so
    /// call this outside every lock. If the host's owner lets go during the load, the load's
    /// reference is the last, and the host's `deinit` runs on the caller's thread: so a hooked
    /// entry, which is in the table exactly while its host lives, is never loaded, and only
    /// `AFFIX_HOST_MODE=weak` makes entries this can happen to.
    var hostIsGone: Bool { !isRemovedAtDeallocation && host == nil }
  }

  fileprivate static let entries = Locked<[UInt: Entry]>([:], processWide: .weakHostTable)

  /// The entry count at which a write schedules a sweep of this table: twice what the last
  /// sweep left, so that dead hosts' entries stay about half the table between background
  /// sweeps, at an amortized O(1) cost per new host.
  private static let sweepThreshold = Atomic<Int>(256)

  private static let sweepScheduled = Atomic<Bool>(false)

  /// Set with the first entry and never cleared, so that the pinned path's misses skip the
  /// table with one load in a process that never needs it.
  private static let isPopulated = Atomic<Bool>(false)

  /// Whether the table has never held a host.
  static var isEmpty: Bool { !isPopulated.load(ordering: .acquiring) }

  /// The number of hosts in the table, dead ones included until a sweep takes them off.
  static var hostCount: Int {
    isEmpty ? 0 : entries.withLock { $0.count }
  }

  /// The storage of `host`, or nil; `host` is held by the caller.
  static func storage(of host: AnyObject) -> AssociationStorage? {
    let address = UInt(bitPattern: ObjectIdentifier(host))
    guard let entry = entries.withLock({ $0[address] }) else { return nil }
    return entry.belongs(to: host) ? entry.storage : nil
  }

  /// The storage of `host`, created if it has none. An entry left at the host's address by a
  /// dead object is replaced, and its storage queued for release.
  static func makeStorage(of host: AnyObject) -> AssociationStorage {
    let address = UInt(bitPattern: ObjectIdentifier(host))
    let storage = AssociationStorage()
    // Asked before the weak reference is formed: an Objective-C object that refuses one stops
    // the process in `objc_initWeak`. Its storage is its own, released with the caller's write.
    if let refusal = DeallocationHooks.weakReferenceRefusal(of: host) {
      Diagnostics.report(subsystem: "associations", message: refusalMessage(refusal, host: host))
      return storage
    }
    let keeper = DeallocationHooks.keeper(for: host)
    let candidate = Entry(host: host, storage: storage, isRemovedAtDeallocation: keeper != nil)
    isPopulated.store(true, ordering: .releasing)
    while true {
      var count = 0
      let existing = entries.withLock { entries -> Entry? in
        if let existing = entries[address] { return existing }
        entries[address] = candidate
        count = entries.count
        return nil
      }
      guard let existing else {
        if let keeper {
          DeallocationHooks.attach(keeper, to: host, address: address, entry: candidate)
        }
        if count >= sweepThreshold.load(ordering: .relaxed) { scheduleSweep() }
        return storage
      }
      if existing.belongs(to: host) {
        // The candidate never entered the table; its storage is empty.
        candidate.storageReference.release()
        return existing.storage
      }
      // A dead object's entry: replace it unless another writer did first.
      let replaced = entries.withLock { entries -> Bool in
        guard entries[address] === existing else { return false }
        entries[address] = candidate
        return true
      }
      if replaced {
        // The table's reference to the dead object's storage goes to the queue.
        if ReleaseQueue.enqueue([existing.storageReference]) { ReleaseQueue.scheduleDrain() }
        if let keeper {
          DeallocationHooks.attach(keeper, to: host, address: address, entry: candidate)
        }
        return storage
      }
    }
  }

  /// Sweeps this table on a Dispatch thread, unless a sweep is scheduled: its weak loads take
  /// strong references, whose release could run a host's deinit, so never on a writer's thread.
  private static func scheduleSweep() {
    guard !ForkHandlers.isChild else { return }
    guard
      sweepScheduled.compareExchange(expected: false, desired: true, ordering: .acquiring)
        .exchanged
    else { return }
    DispatchQueue.global(qos: .utility).async {
      _ = ReleaseQueue.enqueue(sweep())
      ReleaseQueue.releaseAll()
      sweepThreshold.store(max(256, 2 * hostCount), ordering: .relaxed)
      sweepScheduled.store(false, ordering: .releasing)
    }
  }

  /// The diagnostic for a host that cannot be held weakly.
  private static func refusalMessage(_ refusal: WeakReferenceRefusal, host: AnyObject) -> String {
    switch refusal {
    case .deallocating:
      "a \(type(of: host)) attached its first value during its deinit; the value is released "
        + "at once, as a host in its deinit can only change the values it already has"
    case .refusedByClass:
      "a \(type(of: host)) cannot carry associated values: its class refuses weak references, "
        + "which the weak path holds its hosts by; the value is released at once"
    case .refusedByObjectiveC:
      "a \(type(of: host)) refuses weak references: it is in its deinit, where a host can only "
        + "change the values it already has, or its class does not support them; the value is "
        + "released at once"
    }
  }

  /// Removes the entries whose host is gone and returns the table's references to their
  /// storages, for the caller to queue for release.
  ///
  /// Never an entry that a deallocation hook removes: its host's weak reference reads nil
  /// from the start of its deinit, while the host may still read its values there, and the
  /// hook removes the entry once the last `deinit` body has run.
  static func sweep() -> [Unmanaged<AssociationStorage>] {
    guard !isEmpty else { return [] }
    // Weak references are loaded outside the lock: a load takes a strong reference whose
    // release could be the host's last.
    let snapshot = entries.withLock { Array($0) }
    let gone = snapshot.filter { $0.value.hostIsGone }
    guard !gone.isEmpty else { return [] }
    return entries.withLock { entries in
      var swept: [Unmanaged<AssociationStorage>] = []
      for (address, entry) in gone where entries[address] === entry {
        entries[address] = nil
        swept.append(entry.storageReference)
      }
      return swept
    }
  }

  /// Removes `entry` if it is still the one at `address`, and returns the table's reference to
  /// its storage; for a deallocation hook that runs as the host goes.
  static func remove(_ entry: Entry, at address: UInt) -> Unmanaged<AssociationStorage>? {
    entries.withLock { entries in
      guard entries[address] === entry else { return nil }
      entries[address] = nil
      return entry.storageReference
    }
  }

  /// Live and dead hosts with their entry counts. Entries are counted under the lock, which
  /// keeps their storages in the table; weak loads happen after it, and never of a hooked
  /// entry (see ``Entry/hostIsGone``).
  static func statistics(into statistics: inout AssociationTable.Statistics) {
    guard !isEmpty else { return }
    let counted = entries.withLock { entries in
      entries.values.map { ($0, $0.storage.entryCount) }
    }
    for (entry, values) in counted {
      if entry.hostIsGone {
        statistics.staleHosts += 1
        statistics.staleEntries += values
      } else {
        statistics.liveHosts += 1
        statistics.entries += values
      }
    }
  }
}
