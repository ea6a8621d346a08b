extension Associations {
  /// Attaches `capability` to the host, replacing (and ending) one of the same type; tells it
  /// ``Capability/didAttach(to:)`` unless it was attached already.
  ///
  /// - Returns: `capability`, so that attaching reads as an expression.
  @discardableResult
  public func attach<C: Capability>(_ capability: C) -> C {
    CapabilityKey.register(C.self)
    // Held to the end: a host that cannot carry values gets storage of its own, whose release
    // ends the capability (`hostDied`), which must come after `didAttach`.
    let storage = self.storage
    defer { withExtendedLifetime(storage) {} }
    // Ends that come before `didAttach` has returned (an observer's, the replaced one's
    // `didEnd` removing it) are told after it, in the lifecycle's order.
    CapabilityLifecycle.willAttach(capability)
    let (old, observers) = storage.exchange(Payload(capability), for: CapabilityKey.id(of: C.self))
    notify(observers, capability)
    if let old, old.object !== capability {
      // Stored under C's identity, so it is a C.
      CapabilityLifecycle.end(unsafeDowncast(old.storedObject, to: C.self), .replaced)
    }
    if old?.object !== capability {
      CapabilityLifecycle.attached(capability, to: AnyWeakReference(unidentified: host))
    } else {
      // Attached already: its `didAttach` was told then; an end held meanwhile is told now.
      CapabilityLifecycle.attached(capability, to: nil)
    }
    Engine.retire(consume old)
    return capability
  }

  /// The capability of type `C` attached to the host, if any.
  public func capability<C: Capability>(_ type: C.Type) -> C? {
    guard let payload = withExistingStorage({ $0.object(for: CapabilityKey.id(of: type)) }) else {
      return nil
    }
    // Stored under C's identity, so it is a C.
    return unsafeDowncast(payload.storedObject, to: C.self)
  }

  /// The capability of type `C` attached to the host, attaching the result of `make` first if
  /// there is none.
  ///
  /// Racing callers all receive the one capability that was stored; a capability made by a
  /// loser of the race is never attached, and ends (``CapabilityEnding/replaced``) before it is
  /// dropped.
  public func capability<C: Capability>(_ type: C.Type, orAttach make: () -> C) -> C {
    if let existing = capability(type) { return existing }
    CapabilityKey.register(C.self)
    let made = make()
    // Held to the end, as in `attach(_:)`.
    let storage = self.storage
    defer { withExtendedLifetime(storage) {} }
    CapabilityLifecycle.willAttach(made)
    let (stored, inserted, observers) = storage.insertIfAbsent(
      Payload(made), for: CapabilityKey.id(of: type))
    if inserted {
      notify(observers, made)
      CapabilityLifecycle.attached(made, to: AnyWeakReference(unidentified: host))
    } else {
      CapabilityLifecycle.attached(made, to: nil)
      made.didEnd(.replaced)
    }
    // Stored under C's identity, so it is a C.
    return unsafeDowncast(stored.storedObject, to: C.self)
  }

  /// Removes the capability of type `C` from the host, ending it
  /// (``Capability/didEnd(_:)`` with ``CapabilityEnding/removed``), and returns it.
  @discardableResult
  public func removeCapability<C: Capability>(_ type: C.Type) -> C? {
    guard let storage = existingStorage else { return nil }
    let (old, observers) = storage.exchange(nil, for: CapabilityKey.id(of: type))
    guard let old else { return nil }
    // Stored under C's identity, so it is a C.
    let capability = unsafeDowncast(old.storedObject, to: C.self)
    notify(observers, C?.none)
    CapabilityLifecycle.end(capability, .removed)
    Engine.retire(consume old)
    return capability
  }

  /// Every capability attached to the host, for diagnostics.
  public var capabilities: [any Capability] {
    let payloads = existingStorage?.capabilityPayloads() ?? []
    return payloads.compactMap { $0.storedObject as? any Capability }
  }
}
