/// A key declared as a type, under which a value is attached to a host.
///
/// An ``AssociatedKey`` is an object, so a key kept in a `static let` or a file-level `let` is
/// reached through the global's lazy initializer on every access. In a loop over hosts held in
/// an array, the compiler then retains and releases each host around that check: about 17 ns a
/// read here, against 2.5 ns for the read itself. A key declared as a type costs nothing to
/// reach, so a computed property in an extension reads at the full speed:
///
/// ```swift
/// enum TapCount: AssociatedValueKey {
///   typealias Value = Int
/// }
///
/// extension Button {
///   var tapCount: Int {
///     get { Associations(of: self)[TapCount.self] ?? 0 }
///     set { Associations(of: self)[TapCount.self] = newValue }
///   }
/// }
/// ```
///
/// The type is the key's identity: two key types never collide, whatever their names, and a
/// key type never collides with an ``AssociatedKey`` or a ``Capability``. The type's name is
/// the key's name in ``Associations/keys``. Values are held strongly; conform to
/// ``WeakAssociatedValueKey`` instead to hold a class instance weakly.
///
/// Declare the type at file scope or inside another type, as an `enum` with no cases, so that
/// it is only a name. A generic type makes one key per specialization.
public protocol AssociatedValueKey {
  /// The type of the values stored under this key.
  associatedtype Value
}

/// A key declared as a type, whose class-instance values are held weakly and read as `nil`
/// once they die: the type-declared form of ``AssociatedKey/weak(_:)``.
///
/// ```swift
/// enum Delegate: WeakAssociatedValueKey {
///   typealias Value = Listener
/// }
/// ```
public protocol WeakAssociatedValueKey: AssociatedValueKey where Value: AnyObject {}

extension KeyHandle {
  /// The handle of the key declared by `key`: its type's metadata address, marked as a
  /// declared key, with the representation of its values.
  @inlinable @inline(__always)
  init<Key: AssociatedValueKey>(declaredBy key: Key.Type) where Key.Value == Value {
    let representation: PayloadRepresentation =
      // Inline first: known at compile time once specialized, which keeps the read's key ID
      // a constant.
      if PayloadRepresentation.isInline(Value.self) {
        .inline
      } else if key is any WeakAssociatedValueKey.Type {
        .weak
      } else {
        PayloadRepresentation.of(Value.self)
      }
    self.init(
      id: UInt(bitPattern: ObjectIdentifier(key)) | KeyID.typeBit | representation.rawValue,
      representation: representation)
  }
}

extension KeyRegistry {
  /// The description of the key declared by the type whose metadata `id` carries.
  static func describeDeclaredKey(_ id: UInt) -> AnyAssociatedKey {
    let metadata = id & ~(KeyID.typeBit | KeyID.representationMask)
    // A declared key's ID carries its type's metadata address (see `KeyHandle`).
    let type = unsafeBitCast(UnsafeRawPointer(bitPattern: metadata)!, to: Any.Type.self)
    guard let keyType = type as? any AssociatedValueKey.Type else {
      return AnyAssociatedKey(id: id, name: "\(type)", valueType: Any.self, policy: .strong)
    }
    return describe(keyType, id: id)
  }

  private static func describe<Key: AssociatedValueKey>(_ key: Key.Type, id: UInt)
    -> AnyAssociatedKey
  {
    AnyAssociatedKey(
      id: id, name: "\(key)", valueType: Key.Value.self,
      policy: key is any WeakAssociatedValueKey.Type ? .weak : .strong)
  }
}

extension Associations {
  /// The value stored under the key that `key` declares; assigning `nil` removes it.
  ///
  /// The same storage, rules and costs as the subscript that takes an ``AssociatedKey``, with the key reached at no cost.
  @inlinable @inline(__always)
  public subscript<Key: AssociatedValueKey>(key: Key.Type) -> Key.Value? {
    get { value(for: KeyHandle(declaredBy: key)) }
    nonmutating set { setValue(newValue, for: KeyHandle(declaredBy: key)) }
  }

  /// The value stored under the key that `key` declares, or `defaultValue` when there is none;
  /// assigning stores.
  ///
  /// ```swift
  /// Associations(of: button)[TapCount.self, default: 0] += 1
  /// ```
  @inlinable
  public subscript<Key: AssociatedValueKey>(
    key: Key.Type, default defaultValue: @autoclosure () -> Key.Value
  ) -> Key.Value {
    get { self[key] ?? defaultValue() }
    nonmutating set { self[key] = newValue }
  }

  /// Removes the value stored under the key that `key` declares and returns it.
  @inlinable
  @discardableResult
  public func removeValue<Key: AssociatedValueKey>(for key: Key.Type) -> Key.Value? {
    removeValue(for: KeyHandle(declaredBy: key))
  }

  /// The value stored under the key that `key` declares, storing the result of `makeValue`
  /// first if there is none; atomic, as for an ``AssociatedKey``.
  @inlinable
  public func value<Key: AssociatedValueKey>(
    for key: Key.Type, orInsert makeValue: () throws -> Key.Value
  ) rethrows -> Key.Value {
    try value(for: KeyHandle(declaredBy: key), orInsert: makeValue)
  }

  /// Calls `onChange` after each change to the value stored under the key that `key` declares,
  /// until the returned token is cancelled or dropped; as for an ``AssociatedKey``.
  public func observe<Key: AssociatedValueKey>(
    _ key: Key.Type, _ onChange: @escaping @Sendable (Key.Value?) -> Void
  ) -> CancellationToken {
    observe(keyID: KeyHandle(declaredBy: key).id, onChange)
  }
}

extension AnyAssociatedKey {
  /// Whether this describes the key that `key` declares.
  public func describes<Key: AssociatedValueKey>(_ key: Key.Type) -> Bool {
    id == KeyHandle(declaredBy: key).id
  }
}
