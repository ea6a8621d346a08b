/// The associated values of one host: read, write, remove, get-or-create and observe.
///
/// `Associations` is a lightweight view; create one whenever you need it. The host must be a
/// class instance (structs and strings have no stable identity to attach to). The storage
/// never retains the host, and releases the host's values after it dies.
///
/// ```swift
/// private let tapCount = AssociatedKey<Int>("tapCount")
///
/// extension Button {
///   var tapCount: Int {
///     get { Associations(of: self)[tapCount] ?? 0 }
///     set { Associations(of: self)[tapCount] = newValue }
///   }
/// }
/// ```
///
/// ## Isolation
/// An associated value is logically part of its host. A host that is not `Sendable` is kept in
/// one isolation region by the compiler, and its values go wherever it goes, so they need not
/// be `Sendable`. If you share a host across threads, store only `Sendable` values on it.
public struct Associations<Host: AnyObject> {
  /// The host whose values this view reads and writes. The view retains it while it exists.
  public let host: Host

  @usableFromInline
  let ownStorage: AssociationStorage?

  /// A view on the values of any class instance, kept in the shared table.
  ///
  /// If the host turns out to be an ``AssociationOwner``, its own storage is used instead.
  @inlinable @inline(__always)
  public init(of host: Host) {
    self.host = host
    self.ownStorage = nil
  }

  /// A view on the values of a host that owns its storage; the shared table is never touched.
  @inlinable
  public init(of host: Host) where Host: AssociationOwner {
    self.host = host
    self.ownStorage = host.associationStorage
  }

  /// Runs `body` on the host's storage, if it has one, without retaining the storage: the
  /// table keeps it alive as long as the host, which this view holds.
  @inlinable @inline(__always)
  func withExistingStorage<R>(_ body: (AssociationStorage) throws -> R?) rethrows -> R? {
    if let ownStorage { return try body(ownStorage) }
    let bits = HostTable.storageBits(of: host)
    if bits != 0 {
      // Nonzero storage bits are the address of a storage the table holds.
      return try Unmanaged<AssociationStorage>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        ._withUnsafeGuaranteedRef(body)
    }
    if let ownerStorage { return try body(ownerStorage) }
    return nil
  }

  /// The storage that holds the host's values, or nil if none was created yet.
  @usableFromInline
  var existingStorage: AssociationStorage? {
    withExistingStorage { $0 }
  }

  @usableFromInline
  var ownerStorage: AssociationStorage? {
    (host as? any AssociationOwner)?.associationStorage
  }

  /// The storage that holds the host's values, created on first use.
  @usableFromInline
  var storage: AssociationStorage {
    if let storage = existingStorage { return storage }
    return HostTable.makeStorage(of: host)
  }

  /// Runs `body` on the host's storage, creating it on first use, without retaining it when
  /// it already exists.
  @inlinable
  func withStorage<R>(_ body: (AssociationStorage) throws -> R) rethrows -> R {
    if let result = try withExistingStorage(body) { return result }
    return try body(HostTable.makeStorage(of: host))
  }

  /// The value stored under `key`; assigning `nil` removes it.
  ///
  /// A replaced value is released after the storage is unlocked, so its `deinit` may use the
  /// storage freely.
  ///
  /// - Complexity: Reading is O(*k*) for *k* keys on this host, with no lock on the shared
  ///   table; writing a host's first value may also sweep a few dead hosts (amortized O(1)).
  @inlinable @inline(__always)
  public subscript<Value>(key: AssociatedKey<Value>) -> Value? {
    get { value(for: key.handle) }
    nonmutating set { setValue(newValue, for: key.handle) }
  }

  /// The value stored under `key`, or `defaultValue` when there is none; assigning stores.
  ///
  /// ```swift
  /// Associations(of: button)[tapCount, default: 0] += 1
  /// ```
  ///
  /// A read-modify-write through this subscript is two operations; use
  /// `value(for:orInsert:)` with a reference type when updates race.
  @inlinable
  public subscript<Value>(key: AssociatedKey<Value>, default defaultValue: @autoclosure () -> Value)
    -> Value
  {
    get { self[key] ?? defaultValue() }
    nonmutating set { self[key] = newValue }
  }

  /// Removes the value stored under `key` and returns it; a second removal returns `nil`.
  @inlinable
  @discardableResult
  public func removeValue<Value>(for key: AssociatedKey<Value>) -> Value? {
    removeValue(for: key.handle)
  }

  /// The value stored under `key`, storing the result of `makeValue` first if there is none.
  ///
  /// Atomic: when callers race on an empty key, each may run its factory, but exactly one
  /// result is stored and every caller receives that one (as .NET's
  /// `ConditionalWeakTable.GetValue` does). The factory runs outside every lock, so it may
  /// use the storage itself.
  ///
  /// ```swift
  /// let cache = Associations(of: image).value(for: thumbnailKey) { Thumbnail(of: image) }
  /// ```
  @inlinable
  public func value<Value>(
    for key: AssociatedKey<Value>, orInsert makeValue: () throws -> Value
  ) rethrows -> Value {
    try value(for: key.handle, orInsert: makeValue)
  }

  // MARK: Operations on either kind of key

  @inlinable @inline(__always)
  func value<Value>(for key: KeyHandle<Value>) -> Value? {
    if PayloadRepresentation.isInline(Value.self) {
      // Known at compile time once specialized, so the other paths compile away.
      let found =
        if let ownStorage { ownStorage.inlineBits(for: key.id) } else {
          inlineBits(for: key.id, of: host)
        }
      guard let bits = found else { return nil }
      // An inline type's keys always store inline payloads, so the bits are decoded without
      // asking the key.
      return withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
    }
    guard let payload = withExistingStorage({ $0.object(for: key.id) }) else { return nil }
    return key.decode(payload)
  }

  @inlinable @inline(__always)
  func setValue<Value>(_ newValue: Value?, for key: KeyHandle<Value>) {
    if let newValue {
      let payload = key.encode(newValue)
      let (old, observers) = withStorage { $0.exchange(payload, for: key.id) }
      _ = old
      notify(observers, newValue)
    } else if let (old, observers) = withExistingStorage({ $0.exchange(nil, for: key.id) }) {
      if old != nil { notify(observers, Value?.none) }
    }
  }

  @inlinable
  func removeValue<Value>(for key: KeyHandle<Value>) -> Value? {
    guard let (old, observers) = withExistingStorage({ $0.exchange(nil, for: key.id) }),
      let old
    else { return nil }
    let value = key.decode(old)
    notify(observers, Value?.none)
    return value
  }

  @inlinable
  func value<Value>(
    for key: KeyHandle<Value>, orInsert makeValue: () throws -> Value
  ) rethrows -> Value {
    if let value = value(for: key) {
      return value
    }
    let made = try makeValue()
    let storage = self.storage
    while true {
      let (stored, inserted, observers) = storage.insertIfAbsent(key.encode(made), for: key.id)
      if inserted {
        notify(observers, made)
        return made
      }
      if let value = key.decode(stored) { return value }
      // Only a weak value can decode to nil.
      // A weak value died between the two steps: clear it (only if it is still the dead one)
      // and try again.
      _ = storage.exchangeIfSame(stored, with: nil, for: key.id)
    }
  }

  /// The keys that have a value on this host, for diagnostics.
  public var keys: [AnyAssociatedKey] {
    (existingStorage?.keyIDs() ?? []).map(KeyRegistry.describe)
  }

  /// Calls observers after a change, outside every lock. They receive the new value boxed, so
  /// one erased closure type serves every key.
  @usableFromInline
  func notify<Value>(_ observers: [ObserverRegistration]?, _ newValue: Value?) {
    guard let observers else { return }
    let payload = newValue.map { Payload(ValueBox($0)) }
    for observer in observers { observer.call(payload) }
  }
}
