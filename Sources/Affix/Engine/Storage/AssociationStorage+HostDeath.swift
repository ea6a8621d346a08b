extension AssociationStorage {
  /// Tells each capability stored here that its host died (``CapabilityEnding/hostDied``), from
  /// the storage's deinit, before the values are released.
  ///
  /// The deinit runs where the dead host's values are released, and nowhere else: on the
  /// library's release thread or in ``AssociationTable/sweep()`` for a host in the shared
  /// table, in the host's own deinit for an ``AssociationOwner``; never under a lock of the
  /// library. No reader or writer can reach the storage any more, so its entries are read
  /// without one. Each capability is retained for its call: a `didEnd` that drops the last
  /// other reference to it must not free it mid-call.
  func endCapabilitiesOfDeadHost() {
    var capabilities: [any Capability] = []
    forEachEntry { keyID, payloadBits in
      guard KeyID.isCapability(keyID) else { return }
      // A capability's payload is the retained address of the capability.
      let object = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: payloadBits)!)
        .takeUnretainedValue()
      if let capability = object as? any Capability { capabilities.append(capability) }
    }
    for capability in capabilities { CapabilityLifecycle.end(capability, .hostDied) }
  }

  /// Takes every value out of the storage of a host that has stayed inside its deinit past
  /// ``AssociationTable/deinitGrace``, as its death would: observers are told of each removal,
  /// capabilities end with ``CapabilityEnding/hostDied``, and the values are retired, since
  /// the host's deinit may still be reading them. Returns how many values it took. Call with no
  /// lock held, on a thread that asked for releases (a sweep's).
  func releaseValuesOfLingeringHost() -> Int {
    let keyIDs = lock.withLock { () -> [UInt] in
      var keyIDs: [UInt] = []
      forEachEntry { keyID, _ in keyIDs.append(keyID) }
      return keyIDs
    }
    var taken: [Payload] = []
    var capabilities: [any Capability] = []
    for keyID in keyIDs {
      let (old, observers) = exchange(nil, for: keyID)
      // A removal's calls carry no value, whatever the key's type.
      for (observer, turn) in observers?.calls ?? [] { observer.call(nil, inTurn: turn) }
      guard let old else { continue }
      if KeyID.isCapability(keyID), let capability = old.storedObject as? any Capability {
        capabilities.append(capability)
      }
      taken.append(old)
    }
    for capability in capabilities { CapabilityLifecycle.end(capability, .hostDied) }
    let count = taken.count
    while let payload = taken.popLast() { Retirement.retire(payload) }
    return count
  }
}
