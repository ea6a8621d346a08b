public import Observation

/// A key whose value Swift Observation tracks, as it tracks a stored property of an
/// `@Observable` class.
///
/// A read of its value inside `withObservationTracking(_:onChange:)` (a SwiftUI `body`, an
/// `Observations` closure) registers an access; the next change on that host calls `onChange`,
/// once. Keys declared ``AssociatedKey`` pay nothing for it. See
/// <doc:ObservingValues#What-counts-as-a-change> and <doc:ObservingValues#What-it-costs>.
///
/// ```swift
/// enum Caption: ObservableKey {
///   typealias Value = String?
/// }
///
/// withObservationTracking {
///   render(photo.caption)  // reads Associations(of: photo)[Caption.self]
/// } onChange: {
///   scheduleRender()
/// }
/// ```
public protocol ObservableKey: AssociatedKey {}

extension ObservableKey {
  /// Observation tracks the key.
  @inlinable
  public static var _isObservable: Bool { true }
}

/// Where Observation registers the reads of one observable key on one host, and learns of its
/// changes: a registrar with one property, attached to the host under the key's
/// ``ObservationSlotKey`` on the key's first read.
///
/// It holds nothing of the host. It goes with the host's other values, and on its way out
/// tells every tracking still registered that the value changed: the host died, and its value
/// is gone. (A registrar that dies calls one registered tracking only, so the slot does not
/// leave the death to the registrar's own deinit.)
@usableFromInline
final class ObservationSlot: Observable, Sendable {
  @usableFromInline
  let registrar = ObservationRegistrar()

  @usableFromInline
  init() {}

  /// The property whose key path Observation registers: it names the slot's key, and has no
  /// value of its own.
  @usableFromInline
  var value: Void { () }

  deinit {
    registrar.willSet(self, keyPath: \.value)
    registrar.didSet(self, keyPath: \.value)
  }
}

/// The key under which a host keeps the ``ObservationSlot`` of `Key`: one key per observable
/// key, left out of ``Associations/keys``.
@usableFromInline
enum ObservationSlotKey<Key: AssociatedKey>: AssociatedKey, HiddenKey {
  @usableFromInline
  typealias Value = ObservationSlot?
}

/// A key of the library's own, attached beside a user's key and not listed with the host's.
protocol HiddenKey {}

extension Associations {
  /// Registers a read of `key` with the tracking under way, if any: the key's slot, attached
  /// on its first read, is where a later write finds the tracking.
  @inlinable
  func trackAccess<Key: AssociatedKey>(to key: Key.Type) {
    let slot =
      existingObservationSlot(for: key)
      ?? value(for: ObservationSlotKey<Key>.self) {
        ObservationSlot()
      }
    slot.registrar.access(slot, keyPath: \.value)
  }

  /// The slot of `key` on this host, if it was read as an observable key.
  @inlinable
  func existingObservationSlot<Key: AssociatedKey>(for key: Key.Type) -> ObservationSlot? {
    value(for: KeyHandle(ObservationSlotKey<Key>.self)) ?? nil
  }

  /// Runs `write`, a change of `key`, between Observation's `willSet` and `didSet`, if a read
  /// ever attached the key's slot; otherwise only `write`.
  ///
  /// A write that checks for the slot just before a first read attaches it does not tell that
  /// read's tracking: the same window Observation has between a tracked read and the moment
  /// its tracking is installed.
  @inlinable
  func withObservedMutation<Key: AssociatedKey, Result>(
    of key: Key.Type, _ write: () throws -> Result
  ) rethrows -> Result {
    guard let slot = existingObservationSlot(for: key) else { return try write() }
    return try slot.registrar.withMutation(of: slot, keyPath: \.value, write)
  }

  /// A write of an observable key whose slot a read attached: Observation is told of it unless
  /// it is no change (``AssociatedKey/_isNoChange(_:_:)``), as of a write to a stored property
  /// of an `@Observable` class. The value is stored either way.
  ///
  /// A write that differs from the value it reads first is told around a plain store, as the
  /// macro's setter does: one `withMutation`, the cheapest path. One that reads as no change is
  /// judged again, atomically, against the value it replaces (`updateObserved`), so a racing
  /// write that stored something else in between is told. No change goes untold; a race can
  /// at worst tell a write that turned out equal, which costs a redundant re-evaluation.
  @inlinable
  func storeObserved<Key: AssociatedKey>(
    _ newValue: Key.Value, for key: Key.Type, _ slot: ObservationSlot
  ) {
    let current = value(for: KeyHandle(key)) ?? Key.defaultValue
    if Key._isNoChange(current, newValue) {
      updateObserved(key, slot, unchangedIf: nil) { $0 = newValue }
    } else {
      slot.registrar.withMutation(of: slot, keyPath: \.value) { store(newValue, for: key) }
    }
  }

  /// An update of an observable key: Observation's `willSet` is called once, by the first run
  /// of `body` that changes the value, before it is stored; `didSet` after the update. A run
  /// that leaves the value as it read it (``AssociatedKey/_isNoChange(_:_:)``) stores it
  /// untold, as the `@Observable` macro stores an equal value.
  @inlinable
  func updateObserved<Key: AssociatedKey, Result>(
    _ key: Key.Type, _ slot: ObservationSlot,
    unchangedIf isUnchanged: ((Key.Value, Key.Value) -> Bool)?,
    _ body: (inout Key.Value) throws -> Result
  ) rethrows -> Result {
    var announced = false
    defer { if announced { slot.registrar.didSet(slot, keyPath: \.value) } }
    return try updateStored(key, unchangedIf: isUnchanged) { value in
      let original = value
      let result = try body(&value)
      if !announced {
        if let isUnchanged, isUnchanged(original, value) { return result }
        if Key._isNoChange(original, value) { return result }
        announced = true
        // Outside every lock: `body`'s runs are.
        slot.registrar.willSet(slot, keyPath: \.value)
      }
      return result
    }
  }

  /// A removal of an observable key's value, whose slot a read attached: Observation is told
  /// of it unless the value removed is no change from the key's default, which the key reads
  /// from now on. Judged atomically, as ``storeObserved(_:for:_:)`` judges a write. Returns the
  /// value removed, or nil when there was none.
  @inlinable
  func removeObserved<Key: AssociatedKey>(_ key: Key.Type, _ slot: ObservationSlot) -> Key.Value? {
    let handle = KeyHandle(key)
    var announced = false
    defer { if announced { slot.registrar.didSet(slot, keyPath: \.value) } }
    return withExistingStorage { storage -> Key.Value?? in
      while true {
        var current = payload(for: handle, in: storage)
        guard let found = current else { return .some(nil) }
        let value = handle.decode(found)
        if !announced && !Key._isNoChange(value ?? Key.defaultValue, Key.defaultValue) {
          announced = true
          // Outside every lock: `payload(for:in:)` has returned.
          slot.registrar.willSet(slot, keyPath: \.value)
        }
        let (exchanged, old, observers) = storage.compareAndExchange(
          current, with: nil, for: handle.id)
        // This call's own reference to what it read goes before the storage's, which `old`
        // now holds: the removed value's deinit must not run here.
        current = nil
        if exchanged {
          notify(observers, Key.Value?.none)
          Engine.retire(consume old)
          return .some(value)
        }
      }
    } ?? nil
  }
}
