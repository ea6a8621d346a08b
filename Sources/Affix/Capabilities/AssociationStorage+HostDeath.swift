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
    for capability in capabilities { capability.didEnd(.hostDied) }
  }
}
