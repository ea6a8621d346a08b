/// A key under which a value is attached to a host, declared as a type.
///
/// Declare it as an `enum` with no cases, with the value a host has before anything is attached,
/// and read and write it through ``Associations``. See <doc:GettingStarted#Declare-keys>.
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
public protocol AssociatedKey {
  /// The type of the values attached under this key.
  ///
  /// `Sendable`, because a host may cross isolations. See
  /// <doc:MemoryAndThreads#Isolation-follows-the-host>.
  associatedtype Value: Sendable

  /// The value a host has under this key while nothing is attached: before the first write,
  /// after a removal, after a weakly held value dies.
  ///
  /// `nil` for a key whose value is optional, unless it says otherwise.
  static var defaultValue: Value { get }

  /// How values attached under this key are held: ``AssociationPolicy/strong`` unless the key
  /// says otherwise.
  ///
  /// ``AssociationPolicy/weak`` needs a class or an optional class as the value; on any other
  /// value the storage reports the mistake once and holds the value strongly.
  static var policy: AssociationPolicy { get }

  /// Whether `value` stands for no value, so that storing it removes: `nil` for an optional
  /// value. Provided by the library; do not implement it.
  ///
  /// A requirement, though no key should implement it, because the storage's `@inlinable`
  /// subscript must choose by the key's value type at compile time, and only a requirement's
  /// witness, picked when a key conforms, lets it: a `package` requirement is not Swift (every
  /// requirement has its protocol's access), an `@_spi` one cannot be called from public
  /// inlinable code, and a dynamic cast, the only other way to tell an optional, is folded
  /// away only when it succeeds, so every write of a non-optional key would ask the runtime.
  static func _isAbsent(_ value: Value) -> Bool

  /// Whether a present value is a single class instance: a class or an optional class.
  /// Provided by the library; do not implement it. A requirement for the reason
  /// ``_isAbsent(_:)`` is: reads choose their path by it.
  static var _holdsObject: Bool { get }

  /// Whether Swift Observation tracks reads and changes of this key: `true` for an
  /// ``ObservableKey``. Provided by the library; do not implement it. A requirement for the
  /// reason ``_isAbsent(_:)`` is: every read and write chooses its path by it, at compile time.
  static var _isObservable: Bool { get }

  /// Whether writing `new` over `old` is no change to Swift Observation, as for a stored
  /// property of an `@Observable` class: equal values of an `Equatable` type, the same instance
  /// of a class. Provided by the library; do not implement it. A requirement because, as the
  /// `@Observable` macro's overloads are, it is chosen by the value type the key declares, when
  /// the key conforms (a key generic over its value compares nothing, as a generic class's
  /// property does not).
  static func _isNoChange(_ old: Value, _ new: Value) -> Bool
}

extension AssociatedKey {
  /// Values are held strongly.
  @inlinable
  public static var policy: AssociationPolicy { .strong }

  /// No value of a non-optional type stands for absence.
  @inlinable
  public static func _isAbsent(_ value: Value) -> Bool { false }

  /// Observation does not see the key: declare it an ``ObservableKey`` for that.
  @inlinable
  public static var _isObservable: Bool { false }

  /// A value of a type that is neither `Equatable` nor a class always changes.
  @inlinable
  public static func _isNoChange(_ old: Value, _ new: Value) -> Bool { false }

  /// Whether the value type is a class, known at compile time once specialized for a class.
  @inlinable
  public static var _holdsObject: Bool {
    // The size first, which the compiler knows, so that no other type asks the runtime.
    !_isPOD(Value.self) && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size
      && Value.self is AnyObject.Type
  }
}

extension AssociatedKey where Value: ExpressibleByNilLiteral {
  /// `nil`: a key whose value is optional reads `nil` until a value is attached.
  @inlinable
  public static var defaultValue: Value { nil }

  /// `nil` stands for absence: storing it removes the value.
  @inlinable
  public static func _isAbsent(_ value: Value) -> Bool {
    // Folded away once specialized for an optional, whose conformance the compiler sees.
    guard let optional = Value.self as? any OptionalValue.Type else { return false }
    return optional.isNone(value)
  }

  /// Whether the wrapped type is a class.
  @inlinable
  public static var _holdsObject: Bool {
    // The size first, as above; then a cast that is folded away for an optional.
    guard !_isPOD(Value.self) && MemoryLayout<Value>.size == MemoryLayout<AnyObject>.size,
      let optional = Value.self as? any OptionalValue.Type
    else { return false }
    return optional.wrapsObject
  }
}

extension AssociatedKey where Value: Equatable {
  /// An equal value is no change.
  @inlinable
  public static func _isNoChange(_ old: Value, _ new: Value) -> Bool { old == new }
}

extension AssociatedKey where Value: AnyObject {
  /// The same instance is no change.
  @inlinable
  public static func _isNoChange(_ old: Value, _ new: Value) -> Bool { old === new }
}

extension AssociatedKey where Value: Equatable & AnyObject {
  /// An equal instance is no change, as for any `Equatable` value.
  @inlinable
  public static func _isNoChange(_ old: Value, _ new: Value) -> Bool { old == new }
}

/// What the storage needs to know of an optional value type; only `Optional` conforms. Not
/// public, so that no client's `Optional` grows members of the library's.
@usableFromInline
protocol OptionalValue {
  /// Whether `value`, a value of this type, is `nil`.
  static func isNone<Value>(_ value: Value) -> Bool

  /// Whether the wrapped type is a class.
  static var wrapsObject: Bool { get }
}

extension Optional: OptionalValue {
  @inlinable
  static func isNone<Value>(_ value: Value) -> Bool {
    // Called only with `Value == Self` (see `_isAbsent`).
    unsafeBitCast(value, to: Self.self) == nil
  }

  @inlinable
  static var wrapsObject: Bool { Wrapped.self is AnyObject.Type }
}

/// How a key holds the values stored under it.
public enum AssociationPolicy: Sendable, Hashable, CustomStringConvertible {
  /// The value is retained until it is replaced, removed, or its host dies.
  case strong
  /// The value, a class instance, is not retained; it reads as the key's default once it dies.
  case weak

  /// `"strong"` or `"weak"`.
  public var description: String {
    switch self {
    case .strong: "strong"
    case .weak: "weak"
    }
  }
}

/// A type-erased description of a key attached to a host, for diagnostics.
public struct AnyAssociatedKey: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline
  let id: UInt

  /// The key's name: the name of the type that declares the key, or of the capability.
  public let name: String

  /// The type of the values stored under the key.
  public let valueType: any Any.Type

  /// How the key holds its values.
  public let policy: AssociationPolicy

  init(id: UInt, name: String, valueType: any Any.Type, policy: AssociationPolicy) {
    self.id = id
    self.name = name
    self.valueType = valueType
    self.policy = policy
  }

  /// Whether this describes the key that `key` declares.
  public func describes<Key: AssociatedKey>(_ key: Key.Type) -> Bool {
    id == KeyHandle(key).id
  }

  /// The name and value type, for example `TapCount: Int`.
  public var description: String {
    "\(name): \(valueType)"
  }

  /// Descriptions are equal when they describe the same key.
  public static func == (lhs: AnyAssociatedKey, rhs: AnyAssociatedKey) -> Bool {
    lhs.id == rhs.id
  }

  /// Hashes the described key's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}

extension KeyHandle {
  /// The handle of the key that `key` declares: its type's metadata address, marked as a key,
  /// with the representation of its values in the low bits.
  ///
  /// Every choice here is a property of the key's type alone, known at compile time once the
  /// caller is specialized, so that a read's key ID is a constant.
  @inlinable @inline(__always)
  init<Key: AssociatedKey>(_ key: Key.Type) where Key.Value == Value {
    let representation: PayloadRepresentation =
      // Inline first: decided by the compiler for every type, where asking whether a type is
      // a class may take a call into the runtime.
      if PayloadRepresentation.isInline(Value.self) {
        .inline
      } else if Key._holdsObject {
        Key.policy == .weak ? .weak : .object
      } else {
        .boxed
      }
    if Key.policy == .weak && !Key._holdsObject {
      KeyRegistry.reportWeakPolicyOnValue(Key.self)
    }
    self.init(
      id: UInt(bitPattern: ObjectIdentifier(key)) | KeyID.typeBit | representation.rawValue,
      representation: representation)
  }
}

/// Describes keys by their IDs, for ``Associations/keys`` and diagnostics.
@usableFromInline
enum KeyRegistry {
  private static let reported = LockedState<Set<ObjectIdentifier>>(
    unchecked: [], processWide: .keyReports)

  /// Whether `id` is the key of one of the library's own entries, such as an observable key's
  /// ``ObservationSlot``, which ``Associations/keys`` leaves out.
  static func isHidden(_ id: UInt) -> Bool {
    guard !KeyID.isCapability(id) else { return false }
    return metadata(of: id) is any HiddenKey.Type
  }

  /// The type that declared the key `id`, which is not a capability's.
  private static func metadata(of id: UInt) -> any Any.Type {
    let metadata = id & ~(KeyID.typeBit | KeyID.representationMask)
    // A key's ID carries its type's metadata address (see `KeyHandle`).
    return unsafeBitCast(UnsafeRawPointer(bitPattern: metadata)!, to: Any.Type.self)
  }

  static func describe(_ id: UInt) -> AnyAssociatedKey {
    if KeyID.isCapability(id) {
      return CapabilityKey.describe(id)
    }
    let type = metadata(of: id)
    guard let keyType = type as? any AssociatedKey.Type else {
      return AnyAssociatedKey(id: id, name: "\(type)", valueType: Any.self, policy: .strong)
    }
    return describe(keyType, id: id)
  }

  private static func describe<Key: AssociatedKey>(_ key: Key.Type, id: UInt) -> AnyAssociatedKey {
    AnyAssociatedKey(
      id: id, name: "\(key)", valueType: Key.Value.self,
      policy: PayloadRepresentation(rawValue: id & KeyID.representationMask) == .weak
        ? .weak : .strong)
  }

  /// Says once per key that a weak policy was declared on a value that is not a class
  /// instance, which the storage then holds strongly.
  @usableFromInline
  static func reportWeakPolicyOnValue<Key: AssociatedKey>(_ key: Key.Type) {
    let isNew = reported.withLockUnchecked { $0.insert(ObjectIdentifier(key)).inserted }
    guard isNew else { return }
    Diagnostics.report(
      subsystem: "associations",
      message:
        "key \(key) declares a weak policy, but its value type \(Key.Value.self) is not a class "
        + "or an optional class: its values are held strongly")
  }
}
