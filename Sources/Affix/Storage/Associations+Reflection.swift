/// One thing attached to a host, as a leak checker sees it: what it is, the name of its key,
/// and the value it holds strongly, if any.
///
/// Package-visible so that AffixTesting's retain-path finder can follow a host's associations,
/// the one kind of reference no stored property shows.
package struct ReflectedAssociation {
  /// How the host holds what is attached.
  package enum Kind: Sendable, Hashable {
    /// A value under a strong key: held strongly.
    case value
    /// A value under a weak key: not held, so never part of a retain path.
    case weakValue
    /// A capability, under its type: held strongly.
    case capability
    /// An observer of a key: its closure is held strongly, and what it captures with it.
    case observer
  }

  /// How the host holds it.
  package let kind: Kind

  /// The name of the type that declares the key, or of the capability.
  package let name: String

  /// What the host holds strongly: the object, the value of a boxed type, or an observer's
  /// closure. Nil for a weak key, and for a value of a trivial type stored inline, which holds
  /// no references.
  package let value: Any?
}

extension Associations {
  /// Everything attached to the host: its values (weak ones marked, with no value), its
  /// capabilities and the observers of its keys. Empty for a host with no storage yet; the
  /// view never creates one.
  ///
  /// The entries are copied, retained, under the storage's lock, and described after it is
  /// released: no user code (a `deinit`, a description) runs under the lock.
  package var reflectedAssociations: [ReflectedAssociation] {
    guard let storage = existingStorage else { return [] }
    let (entries, observers) = storage.retainedEntriesAndObservers()
    var reflected: [ReflectedAssociation] = []
    for (keyID, payload) in entries {
      let name = Self.reflectedName(of: keyID)
      if KeyID.isCapability(keyID) {
        reflected.append(.init(kind: .capability, name: name, value: payload?.object))
        continue
      }
      switch PayloadRepresentation(rawValue: keyID & KeyID.representationMask) {
      case .weak?:
        reflected.append(.init(kind: .weakValue, name: name, value: nil))
      case .boxed?:
        // A box's only stored property is the value; `Mirror` reads it without knowing its type.
        let boxed = payload?.object.flatMap { Mirror(reflecting: $0).children.first?.value }
        reflected.append(.init(kind: .value, name: name, value: boxed))
      case .object?:
        reflected.append(.init(kind: .value, name: name, value: payload?.object))
      case .inline?, nil:
        reflected.append(.init(kind: .value, name: name, value: nil))
      }
    }
    for (keyID, notify) in observers {
      reflected.append(.init(kind: .observer, name: Self.reflectedName(of: keyID), value: notify))
    }
    return reflected
  }

  private static func reflectedName(of keyID: UInt) -> String {
    KeyRegistry.describe(keyID).name
  }
}

extension AssociationStorage {
  /// Every entry's key ID with its payload (retained; nil when inline), and every observer's
  /// key ID and closure, copied under the lock. Whatever they release, they release after it.
  func retainedEntriesAndObservers() -> (
    entries: [(keyID: UInt, payload: Payload?)],
    observers: [(keyID: UInt, notify: (Payload?) -> Void)]
  ) {
    lock.withLock {
      var entries: [(keyID: UInt, payload: Payload?)] = []
      forEachEntry { keyID, payloadBits in
        entries.append((keyID, KeyID.isInline(keyID) ? nil : Payload(retaining: payloadBits)))
      }
      return (entries, observers.map { ($0.keyID, $0.notify.body) })
    }
  }
}
