/// The associated values of one host: read, write, update, remove, get-or-create and observe.
///
/// A lightweight view on a class instance's values, under keys declared as types; it never keeps
/// the host alive. See <doc:GettingStarted> and <doc:MemoryAndThreads#Isolation-follows-the-host>.
///
/// ```swift
/// enum TapCount: AssociatedKey {
///   static let defaultValue = 0
/// }
///
/// extension Button {
///   var tapCount: Int {
///     get { Associations(of: self)[TapCount.self] }
///     set { Associations(of: self)[TapCount.self] = newValue }
///   }
/// }
/// ```
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
    let bits = Engine.storageBits(of: host)
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
    return Engine.makeStorage(of: host)
  }

  /// Runs `body` on the host's storage, creating it on first use, without retaining it when
  /// it already exists.
  @inlinable
  func withStorage<R>(_ body: (AssociationStorage) throws -> R) rethrows -> R {
    if let result = try withExistingStorage(body) { return result }
    return try body(Engine.makeStorage(of: host))
  }

  /// The value attached under `key`, or the key's default value; assigning stores, and
  /// assigning `nil` to an optional key removes.
  ///
  /// A replaced value is released after the write, never inside it (see
  /// <doc:MemoryAndThreads#When-values-are-released>). Use ``update(_:_:)-4fr7y`` when
  /// writers race.
  ///
  /// ```swift
  /// Associations(of: photo)[Caption.self] = "Sunset over the bay"
  /// ```
  ///
  /// - Complexity: Reading is O(*k*) for *k* keys on this host, with no lock on the shared
  ///   table; writing a host's first value may also sweep a few dead hosts (amortized O(1)).
  @inlinable @inline(__always)
  public subscript<Key: AssociatedKey>(key: Key.Type) -> Key.Value {
    get {
      // Known at compile time once specialized, as every `Key._` property.
      if Key._isObservable { trackAccess(to: key) }
      return value(for: KeyHandle(key)) ?? Key.defaultValue
    }
    nonmutating set {
      if Key._isObservable, let slot = existingObservationSlot(for: key) {
        storeObserved(newValue, for: key, slot)
      } else {
        store(newValue, for: key)
      }
    }
  }

  @inlinable @inline(__always)
  func store<Key: AssociatedKey>(_ newValue: Key.Value, for key: Key.Type) {
    if Key._isAbsent(newValue) {
      setValue(nil, for: KeyHandle(key))
    } else {
      setValue(newValue, for: KeyHandle(key))
    }
  }

  /// Whether a value is attached under `key`, rather than the key reading its default value.
  @inlinable
  public func hasValue<Key: AssociatedKey>(for key: Key.Type) -> Bool {
    if Key._isObservable { trackAccess(to: key) }
    return value(for: KeyHandle(key)) != nil
  }

  /// Removes the value attached under `key` and returns it; the key reads its default value
  /// from now on, which is also what a removal returns when nothing was attached.
  @inlinable
  @discardableResult
  public func removeValue<Key: AssociatedKey>(for key: Key.Type) -> Key.Value {
    if Key._isObservable, let slot = existingObservationSlot(for: key) {
      return removeObserved(key, slot) ?? Key.defaultValue
    }
    return removeStored(for: KeyHandle(key)) ?? Key.defaultValue
  }

  /// Changes the value attached under `key` in place, atomically: when threads update at once,
  /// each update applies to the result of the one before, and none is lost.
  ///
  /// `body` may run again on a newer value, outside every lock: keep it free of side effects. See
  /// <doc:GettingStarted#Updating-in-place>.
  ///
  /// ```swift
  /// Associations(of: photo).update(ViewCount.self) { $0 += 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key whose value to change.
  ///   - body: Changes the current value (the key's default when nothing is attached).
  /// - Returns: What `body` returns, from the run that was stored.
  @inlinable
  @discardableResult
  public func update<Key: AssociatedKey, Result>(
    _ key: Key.Type, _ body: (inout Key.Value) throws -> Result
  ) rethrows -> Result {
    try update(key, unchangedIf: nil, body)
  }

  /// Changes the `Equatable` value attached under `key` in place, atomically; an update that
  /// leaves the value equal writes nothing and notifies no observer.
  ///
  /// ```swift
  /// // Notifies only when the selection moves.
  /// Associations(of: list).update(Selection.self) { $0 = min($0, lastRow) }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key whose value to change.
  ///   - body: Changes the current value (the key's default when nothing is attached).
  /// - Returns: What `body` returns, from the run that was stored.
  @inlinable
  @discardableResult
  public func update<Key: AssociatedKey, Result>(
    _ key: Key.Type, _ body: (inout Key.Value) throws -> Result
  ) rethrows -> Result where Key.Value: Equatable {
    try update(key, unchangedIf: { $0 == $1 }, body)
  }

  /// The `update` methods; `isUnchanged`, when given, tells a run that left the value as it
  /// read it, which then writes nothing.
  @inlinable
  func update<Key: AssociatedKey, Result>(
    _ key: Key.Type, unchangedIf isUnchanged: ((Key.Value, Key.Value) -> Bool)?,
    _ body: (inout Key.Value) throws -> Result
  ) rethrows -> Result {
    if Key._isObservable, let slot = existingObservationSlot(for: key) {
      return try updateObserved(key, slot, unchangedIf: isUnchanged, body)
    }
    return try updateStored(key, unchangedIf: isUnchanged, body)
  }

  /// The read-modify-write loop of the `update` methods.
  @inlinable
  func updateStored<Key: AssociatedKey, Result>(
    _ key: Key.Type, unchangedIf isUnchanged: ((Key.Value, Key.Value) -> Bool)?,
    _ body: (inout Key.Value) throws -> Result
  ) rethrows -> Result {
    let handle = KeyHandle(key)
    // A run of `body` on an inline value that could not be stored in place (the storage has
    // observers): the locked path below stores it if the value is still the one it read.
    var ranOn: (bits: UInt, value: Key.Value, result: Result)?
    if PayloadRepresentation.isInline(Key.Value.self) {
      // Known at compile time once specialized. An inline value over another: a
      // compare-and-store in place, as a set stores in place, with no lock but the entry's;
      // with observers, the same compare under the storage's lock. A race lost, a removal or
      // a first value go the usual way below, where `body` runs again on what it reads.
      let found =
        if let ownStorage { ownStorage.inlineBits(for: handle.id) } else {
          inlineBits(for: handle.id, of: host)
        }
      if let bits = found {
        var value = withUnsafeBytes(of: bits) { $0.load(as: Key.Value.self) }
        let original = value
        let result = try body(&value)
        if let isUnchanged, isUnchanged(original, value) { return result }
        if !Key._isAbsent(value) {
          var newBits: UInt = 0
          withUnsafeMutableBytes(of: &newBits) { $0.storeBytes(of: value, as: Key.Value.self) }
          let stored =
            if let ownStorage {
              ownStorage.exchangedInPlace(bits, with: newBits, for: handle.id)
            } else { exchangedInPlace(bits, with: newBits, for: handle.id, of: host) }
          if stored == true { return result }
          if stored == nil { ranOn = (bits, value, result) }
        }
      }
    }
    return try updateUnderLock(key, handle, unchangedIf: isUnchanged, body, ranOn: ranOn)
  }

  /// The loop of ``updateStored(_:unchangedIf:_:)`` under the storage's lock: every value but an
  /// inline one over another with no observer. `ranOn` is a run of `body` made on an inline
  /// value that could not be stored in place, used if the value has not changed since. Out
  /// of line, so that the fast path stays small enough to inline into its caller.
  @inlinable @inline(never)
  func updateUnderLock<Key: AssociatedKey, Result>(
    _ key: Key.Type, _ handle: KeyHandle<Key.Value>,
    unchangedIf isUnchanged: ((Key.Value, Key.Value) -> Bool)?,
    _ body: (inout Key.Value) throws -> Result,
    ranOn: (bits: UInt, value: Key.Value, result: Result)?
  ) rethrows -> Result {
    var ranOn = ranOn
    return try withStorage { storage in
      while true {
        var current = payload(for: handle, in: storage)
        var value: Key.Value
        let result: Result
        if let run = ranOn.take(), current?.bits == run.bits {
          (value, result) = (run.value, run.result)
        } else {
          value = current.flatMap(handle.decode) ?? Key.defaultValue
          let original = isUnchanged == nil ? nil : Optional(value)
          result = try body(&value)
          if let isUnchanged, let original, isUnchanged(original, value) { return result }
        }
        let replacement = Key._isAbsent(value) ? nil : handle.encode(value)
        if current == nil && replacement == nil { return result }
        let (exchanged, old, observers) = storage.compareAndExchange(
          current, with: replacement, for: handle.id)
        // This call's own reference to what it read goes before the storage's, which `old`
        // now holds: the replaced value's deinit must not run here, whatever the observers
        // take.
        current = nil
        if exchanged {
          notify(observers, replacement == nil ? nil : Optional(value))
          Engine.retire(consume old)
          return result
        }
      }
    }
  }

  /// The compare-and-store of an inline update under the storage's lock, for a storage with
  /// observers, which it notifies of `value`; whether it stored. Out of the update's fast path.
  @inlinable @inline(never)
  func exchangeUnderLock<Value>(
    _ expected: UInt, with bits: UInt, _ value: Value, for key: KeyHandle<Value>
  ) -> Bool {
    let (exchanged, _, observers) = withStorage {
      $0.compareAndExchange(Payload(inline: expected), with: Payload(inline: bits), for: key.id)
    }
    if exchanged { notify(observers, Optional(value)) }
    return exchanged
  }

  /// The value attached under `key`, attaching the result of `makeValue` first if there is
  /// none: the way to make an object on first use.
  ///
  /// Atomic: racing callers all receive the one stored result. See
  /// <doc:GettingStarted#Making-a-value-on-first-use>.
  ///
  /// ```swift
  /// let thumbnail = Associations(of: image).value(for: ThumbnailKey.self) { Thumbnail(of: image) }
  /// ```
  @inlinable
  public func value<Key: AssociatedKey, Wrapped>(
    for key: Key.Type, orInsert makeValue: () throws -> Wrapped
  ) rethrows -> Wrapped where Key.Value == Wrapped? {
    if Key._isObservable { trackAccess(to: key) }
    let handle = KeyHandle(key)
    if let value = value(for: handle) {
      return value.unsafelyUnwrapped
    }
    let made = Key.Value.some(try makeValue())
    if Key._isObservable {
      return withObservedMutation(of: key) { insert(made, for: handle) }
    }
    return insert(made, for: handle)
  }

  /// The insertion of ``value(for:orInsert:)``: `made`, unless another thread stored first.
  @inlinable
  func insert<Wrapped>(_ made: Wrapped?, for handle: KeyHandle<Wrapped?>) -> Wrapped {
    let storage = self.storage
    while true {
      let (stored, inserted, observers) = storage.insertIfAbsent(
        handle.encode(made), for: handle.id)
      if inserted {
        // Spelled out: `made` alone would make the box's type `Wrapped`, not the key's value.
        notify(observers, Wrapped??.some(made))
        return made.unsafelyUnwrapped
      }
      // Present values are never nil; only a weak value can decode to none.
      if let value = handle.decode(stored) { return value.unsafelyUnwrapped }
      // A weak value died between the two steps: clear it (only if it is still the dead one)
      // and try again.
      Engine.retire(storage.exchangeIfSame(stored, with: nil, for: handle.id))
    }
  }

  // MARK: Operations on a key's handle

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
    if let ownStorage { return ownStorage.value(for: key) }
    return objectValue(for: key, of: host)
  }

  @inlinable @inline(__always)
  func setValue<Value>(_ newValue: Value?, for key: KeyHandle<Value>) {
    if PayloadRepresentation.isInline(Value.self), let newValue {
      // Known at compile time once specialized. An inline value over one the host already
      // has is stored in place, with no lock and no observers to call.
      var bits: UInt = 0
      withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: newValue, as: Value.self) }
      let stored =
        if let ownStorage { ownStorage.storedInPlace(bits, for: key.id) } else {
          storedInPlace(bits, for: key.id, of: host)
        }
      if stored { return }
    }
    if let newValue {
      let payload = key.encode(newValue)
      let (old, observers) = withStorage { $0.exchange(payload, for: key.id) }
      notify(observers, newValue)
      // After the observers: the storage's reference, retired, is the replaced value's last.
      Engine.retire(consume old)
    } else if let (old, observers) = withExistingStorage({ $0.exchange(nil, for: key.id) }) {
      if old != nil { notify(observers, Value?.none) }
      Engine.retire(consume old)
    }
  }

  @inlinable
  func removeStored<Value>(for key: KeyHandle<Value>) -> Value? {
    guard let (old, observers) = withExistingStorage({ $0.exchange(nil, for: key.id) }),
      let old
    else { return nil }
    let value = key.decode(old)
    notify(observers, Value?.none)
    Engine.retire(consume old)
    return value
  }

  /// The payload under `key` in `storage`, retained if it is an object, or nil.
  @inlinable
  func payload<Value>(for key: KeyHandle<Value>, in storage: AssociationStorage) -> Payload? {
    if key.representation == .inline {
      return storage.inlineBits(for: key.id).map(Payload.init(inline:))
    }
    return storage.object(for: key.id)
  }

  /// The keys that have a value on this host, for diagnostics.
  public var keys: [AnyAssociatedKey] {
    (existingStorage?.keyIDs() ?? []).filter { !KeyRegistry.isHidden($0) }
      .map(KeyRegistry.describe)
  }

  /// Calls observers after a change, outside every lock. They receive the new value boxed, so
  /// one erased closure type serves every key.
  @usableFromInline
  func notify<Value>(_ observers: ObserverCalls?, _ newValue: Value?) {
    guard let observers else { return }
    let payload = newValue.map { Payload(ValueBox($0)) }
    for (observer, turn) in observers.calls { observer.call(payload, inTurn: turn) }
  }
}

extension Associations where Host == AnyObject {
  /// A view on the values of a host known by a class-bound protocol type (`any Node`, with
  /// `protocol Node: AnyObject`): the same values as a view made from its concrete class.
  ///
  /// ```swift
  /// func select(_ node: any Node) {
  ///   Associations(of: node)[Selected.self] = true
  /// }
  /// ```
  ///
  /// - Parameter host: The host, opened to its class.
  @_disfavoredOverload @inlinable
  public init(of host: some AnyObject) {
    self.host = host
    self.ownStorage = (host as? any AssociationOwner)?.associationStorage
  }
}
