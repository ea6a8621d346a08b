/// Keeps a capability's lifecycle in order, ``Capability/didAttach(to:)`` before
/// ``Capability/didEnd(_:)``, when its end comes while it is being attached: from an observer
/// told of the attachment, from the replaced capability's `didEnd(.replaced)`, from its own
/// `didAttach`, or from another thread.
///
/// An end that arrives before `didAttach` has returned is held and told as soon as it has; the
/// first such end is the one told. Capabilities that no attach is under way for end at once.
enum CapabilityLifecycle {
  /// The capabilities whose `didAttach` has not returned yet, each with the end that arrived
  /// meanwhile, if any. A few entries at most: one per attach under way.
  private static let attaching = LockedState<[ObjectIdentifier: Attaching]>(
    unchecked: [:], processWide: .capabilityLifecycle)

  /// An attach under way: how many (one, unless a capability is attached again from inside
  /// its own attach), and the end held for it.
  private struct Attaching {
    var depth = 1
    var ending: CapabilityEnding?
  }

  /// Marks `capability` as being attached: until ``attached(_:to:)``, its ends are held. Call
  /// before the capability is stored, where a reader could end it.
  static func willAttach(_ capability: some Capability) {
    attaching.withLockUnchecked {
      $0[ObjectIdentifier(capability), default: Attaching(depth: 0)].depth += 1
    }
  }

  /// Tells `capability` it is attached to `host` (nothing for `nil`: it was attached already),
  /// then the end that arrived meanwhile, if any. Call outside every lock, holding a reference
  /// to the capability.
  static func attached(_ capability: some Capability, to host: AnyWeakReference?) {
    if let host { capability.didAttach(to: host) }
    let ending = attaching.withLockUnchecked { attaching -> CapabilityEnding? in
      let id = ObjectIdentifier(capability)
      guard var entry = attaching[id] else { return nil }
      entry.depth -= 1
      guard entry.depth == 0 else {
        attaching[id] = entry
        return nil
      }
      attaching[id] = nil
      return entry.ending
    }
    if let ending { capability.didEnd(ending) }
  }

  /// Tells `capability` of its end: at once, or, while it is being attached, once its
  /// `didAttach` has returned. Call outside every lock, holding a reference to the capability.
  static func end(_ capability: any Capability, _ ending: CapabilityEnding) {
    let held = attaching.withLockUnchecked { attaching -> Bool in
      let id = ObjectIdentifier(capability)
      guard attaching[id] != nil else { return false }
      if attaching[id]?.ending == nil { attaching[id]?.ending = ending }
      return true
    }
    if !held { capability.didEnd(ending) }
  }
}
