internal import AffixRuntimeShims
import Synchronization

/// The storage's listings (keys, capabilities, counts) and its observers.
extension AssociationStorage {
  /// The keys with a value, leaving out weak keys whose value has died.
  func keyIDs() -> [UInt] {
    // Weak boxes are checked after unlocking: a weak load takes a strong reference whose
    // release could be the object's last, and run its deinit.
    let listed = lock.withLock { () -> [(UInt, WeakBox?)] in
      var listed: [(UInt, WeakBox?)] = []
      forEachEntry { keyID, payloadBits in
        guard keyID & KeyID.representationMask == PayloadRepresentation.weak.rawValue else {
          listed.append((keyID, nil))
          return
        }
        listed.append((keyID, Payload(retaining: payloadBits).storedObject as? WeakBox))
      }
      return listed
    }
    return listed.compactMap { keyID, weakBox in
      weakBox.map { $0.object == nil } == true ? nil : keyID
    }
  }

  /// The payloads stored under capability types rather than keys, retained.
  func capabilityPayloads() -> [Payload] {
    lock.withLock {
      var payloads: [Payload] = []
      forEachEntry { keyID, payloadBits in
        if KeyID.isCapability(keyID) { payloads.append(Payload(retaining: payloadBits)) }
      }
      return payloads
    }
  }

  /// The number of entries that hold a value.
  var entryCount: Int {
    let inline =
      (Self.holdsValue(inlineKeyWord(0)) ? 1 : 0) + (Self.holdsValue(inlineKeyWord(1)) ? 1 : 0)
    return inline + overflowEntryCount
  }

  /// Adds `observer`; with `takingFirstTurn`, returns its first turn (see
  /// ``ObserverRegistration/issueTurn()``), taken in the same critical section, which the
  /// caller must deliver: a call made with it runs before any change written after the
  /// observer was added.
  func addObserver(_ observer: ObserverRegistration, takingFirstTurn: Bool) -> UInt64? {
    lock.withLock {
      // Before the observer is in the list: a writer in place that still finds the flag clear
      // is concurrent with this call.
      isObserved.store(true, ordering: .relaxed)
      observers.append(observer)
      return takingFirstTurn ? observer.issueTurn() : nil
    }
  }

  func removeObserver(_ observer: ObserverRegistration) {
    // The callback may capture user objects: the last reference to it may be this one, and is
    // released after unlocking.
    let removed = lock.withLock { () -> ObserverRegistration? in
      guard let index = observers.firstIndex(where: { $0 === observer }) else {
        return nil
      }
      let removed = observers.remove(at: index)
      if observers.isEmpty { isObserved.store(false, ordering: .relaxed) }
      return removed
    }
    _ = removed
  }
}

extension AssociationStorage {
  /// The observers of `keyID`. Call with `lock` held.
  func observersOf(_ keyID: UInt) -> [ObserverRegistration]? {
    guard !observers.isEmpty else { return nil }
    let matching = observers.filter { $0.keyID == keyID }
    return matching.isEmpty ? nil : matching
  }

  /// The observers to notify of the write to `keyID` just made, which replaced `old` (bits; nil:
  /// none) with `payload` (nil: a removal), copied so they run after unlocking (each call
  /// checks that its observation is not cancelled meanwhile), each with its turn, taken here
  /// so that every observer sees the changes in the order the lock saw them; nil when there
  /// are none, or when the write removed nothing from nothing, which is no change and takes no
  /// turn. Every call returned must be delivered. Call with `lock` held, once per write.
  @usableFromInline
  func observerCalls(forChangeOf keyID: UInt, from old: UInt?, to payload: Payload?)
    -> ObserverCalls?
  {
    guard !observers.isEmpty, old != nil || payload != nil else { return nil }
    var calls: [(observer: ObserverRegistration, turn: UInt64)] = []
    for observer in observers where observer.keyID == keyID {
      calls.append((observer, observer.issueTurn()))
    }
    return calls.isEmpty ? nil : ObserverCalls(calls: calls)
  }
}

/// The observers of one change, each with its turn, to be called after unlocking.
@usableFromInline
struct ObserverCalls {
  @usableFromInline
  let calls: [(observer: ObserverRegistration, turn: UInt64)]
}
