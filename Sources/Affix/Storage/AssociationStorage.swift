public import Synchronization

/// The associated values of one host.
///
/// You rarely touch this type: ``Associations`` finds the storage of any host for you. It is
/// public so that a type can own its storage through ``AssociationOwner``:
///
/// ```swift
/// final class Card: AssociationOwner {
///   let associationStorage = AssociationStorage()
/// }
/// ```
///
/// Every operation takes the storage's own lock, which is never held while user code runs:
/// replaced values are released, factories and observers are called, only after unlocking.
public final class AssociationStorage: Sendable {
  @usableFromInline
  let state: Mutex<State>

  /// The address of the host this storage was created for by the shared table, or 0 for an
  /// owner's storage.
  let hostAddress: UInt

  /// Keeps the host's memory allocated, so no other object can appear at `hostAddress` while
  /// this storage lives, without keeping the host alive: its deinit still runs on time.
  private let pin: HostPin?

  /// Creates empty storage, to be kept in a stored property of an ``AssociationOwner``.
  public init() {
    state = Mutex(State())
    hostAddress = 0
    pin = nil
  }

  init(pinning host: AnyObject, at address: UInt) {
    state = Mutex(State())
    hostAddress = address
    pin = HostPin(host: host)
  }

  @usableFromInline
  struct Entry {
    @usableFromInline var keyID: UInt
    @usableFromInline var payload: Payload

    @usableFromInline
    init(keyID: UInt, payload: Payload) {
      self.keyID = keyID
      self.payload = payload
    }
  }

  @usableFromInline
  struct Observer {
    var id: UInt
    var keyID: UInt
    var notify: @Sendable (Payload?) -> Void
  }

  @usableFromInline
  struct State: ~Copyable {
    @usableFromInline var entries: [Entry] = []
    var observers: [Observer] = []
    var nextObserverID: UInt = 0

    @usableFromInline
    init() {}

    @inlinable
    func index(of keyID: UInt) -> Int? {
      var index = 0
      while index < entries.count {
        if entries[index].keyID == keyID { return index }
        index &+= 1
      }
      return nil
    }

    /// The observers to notify of a change to `keyID`, copied so they run after unlocking.
    func observers(of keyID: UInt) -> [@Sendable (Payload?) -> Void] {
      observers.isEmpty ? [] : observers.filter { $0.keyID == keyID }.map(\.notify)
    }
  }

  /// The payload stored under `keyID`, retained, or nil.
  @inlinable
  func payload(for keyID: UInt) -> Payload? {
    state.withLock { state in
      guard let index = state.index(of: keyID) else { return nil }
      return state.entries[index].payload
    }
  }

  /// Stores `payload` (nil removes) and returns what it replaced, to be released after
  /// unlocking, with the observers to notify.
  @usableFromInline
  func exchange(_ payload: Payload?, for keyID: UInt) -> (
    old: Payload?, observers: [@Sendable (Payload?) -> Void]
  ) {
    state.withLock { state in
      let observers = state.observers(of: keyID)
      if let index = state.index(of: keyID) {
        let old = state.entries[index].payload
        if let payload {
          state.entries[index].payload = payload
        } else {
          state.entries.remove(at: index)
        }
        return (old, observers)
      }
      if let payload {
        state.entries.append(Entry(keyID: keyID, payload: payload))
      }
      return (nil, observers)
    }
  }

  /// Stores `payload` unless a value is already there, and returns the one that stays.
  @usableFromInline
  func insertIfAbsent(_ payload: Payload, for keyID: UInt) -> (
    stored: Payload, inserted: Bool, observers: [@Sendable (Payload?) -> Void]
  ) {
    state.withLock { state in
      if let index = state.index(of: keyID) {
        return (state.entries[index].payload, false, [])
      }
      state.entries.append(Entry(keyID: keyID, payload: payload))
      return (payload, true, state.observers(of: keyID))
    }
  }

  /// Replaces the payload under `keyID` only if it is still `expected`; returns what was removed.
  @usableFromInline
  func exchangeIfSame(_ expected: Payload, with payload: Payload?, for keyID: UInt)
    -> Payload?
  {
    state.withLock { state in
      guard let index = state.index(of: keyID),
        state.entries[index].payload.object === expected.object
      else {
        return nil
      }
      let old = state.entries[index].payload
      if let payload {
        state.entries[index].payload = payload
      } else {
        state.entries.remove(at: index)
      }
      return old
    }
  }

  func keyIDs() -> [UInt] {
    state.withLock { $0.entries.map(\.keyID) }
  }

  /// The payloads stored under capability types rather than keys.
  func capabilityPayloads() -> [Payload] {
    state.withLock { state in
      state.entries.filter { $0.keyID & KeyRegistry.serialBit == 0 }.map(\.payload)
    }
  }

  var entryCount: Int {
    state.withLock { $0.entries.count }
  }

  func addObserver(for keyID: UInt, _ notify: @escaping @Sendable (Payload?) -> Void) -> UInt {
    state.withLock { state in
      state.nextObserverID &+= 1
      state.observers.append(Observer(id: state.nextObserverID, keyID: keyID, notify: notify))
      return state.nextObserverID
    }
  }

  func removeObserver(_ id: UInt) {
    // The closure may capture user objects: release it after unlocking.
    let removed = state.withLock { state -> Observer? in
      guard let index = state.observers.firstIndex(where: { $0.id == id }) else { return nil }
      return state.observers.remove(at: index)
    }
    _ = removed
  }

  /// Empties the storage and hands everything back, so the caller releases it unlocked.
  func takeAll() -> (entries: [Entry], observers: [Observer]) {
    state.withLock { state in
      defer {
        state.entries = []
        state.observers = []
      }
      return (state.entries, state.observers)
    }
  }
}

/// An unowned reference that is never read: it only keeps a dead host's memory allocated.
/// `@unchecked Sendable` because the host is never dereferenced through it.
private struct HostPin: @unchecked Sendable {
  unowned let host: AnyObject
}

/// A stored value as the storage sees it: a class instance, a ``ValueBox`` or a ``WeakBox``.
///
/// `@unchecked Sendable` because a value follows its host's isolation (see ``Associations``):
/// the storage hands a value only to code that holds the host, so it moves between threads
/// only as far as the host does.
@usableFromInline
struct Payload: @unchecked Sendable {
  @usableFromInline
  let object: AnyObject

  @usableFromInline
  init(_ object: AnyObject) {
    self.object = object
  }
}
