import Synchronization

/// A typed key under which a value is attached to a host.
///
/// Keys are unique by identity: two keys never collide, even with the same name and the same
/// `Value` type, and nothing about a key depends on hashing a string. Declare each key once,
/// usually as a `static let` or a file-level `let`:
///
/// ```swift
/// private let badgeCount = AssociatedKey<Int>("badgeCount")
/// private let delegate = AssociatedKey<Listener>.weak("delegate")
///
/// Associations(of: view)[badgeCount] = 3
/// ```
///
/// A key's ``policy`` says how the value is held: ``AssociationPolicy/strong`` retains it;
/// ``AssociationPolicy/weak`` holds a class instance weakly, so it reads as `nil` once the
/// instance dies (the safe form of Objective-C's `OBJC_ASSOCIATION_ASSIGN`).
public final class AssociatedKey<Value>: Sendable, Hashable, CustomStringConvertible {
  /// The name given for diagnostics, if any. It plays no part in identity.
  public let name: String?

  /// How values stored under this key are held.
  public let policy: AssociationPolicy

  @usableFromInline
  let id: UInt

  @usableFromInline
  let representation: PayloadRepresentation

  /// Creates a key whose values are retained by the storage.
  ///
  /// - Parameter name: A name for diagnostics, shown by ``Associations/keys`` and in messages.
  public init(_ name: String? = nil) {
    self.name = name
    self.policy = .strong
    self.representation = PayloadRepresentation.of(Value.self)
    self.id = KeyRegistry.nextID(representation)
    KeyRegistry.register(
      AnyAssociatedKey(id: id, name: name, valueType: Value.self, policy: .strong))
  }

  private init(weakNamed name: String?) {
    self.name = name
    self.policy = .weak
    self.representation = .weak
    self.id = KeyRegistry.nextID(.weak)
    KeyRegistry.register(AnyAssociatedKey(id: id, name: name, valueType: Value.self, policy: .weak))
  }

  /// Creates a key whose class-instance values are held weakly and read as `nil` once they die.
  ///
  /// ```swift
  /// let owner = AssociatedKey<Controller>.weak("owner")
  /// ```
  ///
  /// - Parameter name: A name for diagnostics.
  public static func weak(_ name: String? = nil) -> AssociatedKey<Value> where Value: AnyObject {
    AssociatedKey(weakNamed: name)
  }

  deinit {
    KeyRegistry.unregister(id)
  }

  @inlinable
  var handle: KeyHandle<Value> {
    KeyHandle(id: id, representation: representation)
  }

  /// The key's name and value type, for diagnostics.
  public var description: String {
    "AssociatedKey<\(Value.self)>(\(name.map { "\"\($0)\"" } ?? "unnamed"), \(policy))"
  }

  /// Keys are equal only to themselves.
  public static func == (lhs: AssociatedKey, rhs: AssociatedKey) -> Bool {
    lhs === rhs
  }

  /// Hashes the key's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}

/// How a key holds the values stored under it.
public enum AssociationPolicy: Sendable, Hashable, CustomStringConvertible {
  /// The value is retained until it is replaced, removed, or its host dies.
  case strong
  /// The value, a class instance, is not retained; it reads as `nil` once it dies.
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

  /// The key's name, if it has one. For a capability, the capability's type name.
  public let name: String?

  /// The type of the values stored under the key.
  public let valueType: any Any.Type

  /// How the key holds its values.
  public let policy: AssociationPolicy

  init(id: UInt, name: String?, valueType: any Any.Type, policy: AssociationPolicy) {
    self.id = id
    self.name = name
    self.valueType = valueType
    self.policy = policy
  }

  /// Whether this describes `key`.
  public func describes<Value>(_ key: AssociatedKey<Value>) -> Bool {
    id == key.id
  }

  /// The name and value type, for example `"badgeCount": Int`.
  public var description: String {
    "\(name.map { "\"\($0)\"" } ?? "unnamed"): \(valueType)"
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

/// Gives every key a serial identity (see ``KeyID``) and remembers names for
/// ``Associations/keys``.
enum KeyRegistry {
  private static let counter = Atomic<UInt>(0)
  private static let names = Locked<[UInt: AnyAssociatedKey]>([:])

  static func nextID(_ representation: PayloadRepresentation) -> UInt {
    KeyID.make(serial: counter.add(1, ordering: .relaxed).newValue, representation: representation)
  }

  static func register(_ key: AnyAssociatedKey) {
    names.withLock { $0[key.id] = key }
  }

  static func unregister(_ id: UInt) {
    _ = names.withLock { $0.removeValue(forKey: id) }
  }

  static func describe(_ id: UInt) -> AnyAssociatedKey {
    if KeyID.isCapability(id) {
      return CapabilityKey.describe(id)
    }
    if id & KeyID.typeBit != 0 {
      return describeDeclaredKey(id)
    }
    return names.withLock { $0[id] }
      ?? AnyAssociatedKey(id: id, name: "released key", valueType: Any.self, policy: .strong)
  }
}
