/// A value as the storage keeps it: inline bits, or a class instance (the value itself, a
/// ``ValueBox`` or a ``WeakBox``) held by a strong reference.
///
/// `@unchecked Sendable` because everything it holds is: a key's value is `Sendable`
/// (``AssociatedKey/Value``), a capability is, and the boxes around them hold nothing else;
/// `AnyObject` only erases their types.
@usableFromInline
struct Payload: @unchecked Sendable {
  /// The inline bits, or the object's address.
  @usableFromInline
  let bits: UInt

  @usableFromInline
  let object: AnyObject?

  @usableFromInline
  init(inline bits: UInt) {
    self.bits = bits
    self.object = nil
  }

  @usableFromInline
  init(_ object: AnyObject) {
    self.object = object
    self.bits = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  /// Takes over a reference to the object at `bits` that the caller owns.
  @usableFromInline
  init(adoptingRetained bits: UInt) {
    self.init(
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        .takeRetainedValue())
  }

  /// Takes a new reference to the object at `bits`; the storage keeps its own.
  @usableFromInline
  init(retaining bits: UInt) {
    // Entries with object payloads always hold a live, retained object address.
    self.init(
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
        .takeUnretainedValue())
  }

  /// A new reference to the payload at `bits`, which stays in the storage.
  init(copying bits: UInt, for keyID: UInt) {
    if KeyID.isInline(keyID) {
      self.init(inline: bits)
    } else {
      self.init(retaining: bits)
    }
  }

  /// The object of a payload that is not inline.
  @usableFromInline
  var storedObject: AnyObject {
    // Only inline payloads have no object, and callers ask only of object payloads.
    object!
  }

  /// A new reference to the object, as retained bits, or nil for an inline payload.
  func retainedObjectBits() -> UInt? {
    object.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) }
  }

  /// The bits to store in an entry, taking the storage's own reference to an object.
  func retainedBits(for keyID: UInt) -> UInt {
    if let object {
      return UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    }
    return bits
  }
}

/// How a value sits in an entry: a class instance as itself, a trivial value of up to a word
/// inline, anything else in an immutable box, a weakly held instance in a weak box.
@usableFromInline
enum PayloadRepresentation: UInt, Sendable {
  case object = 0
  case boxed = 1
  case weak = 2
  case inline = 3

  @inlinable
  static func of<Value>(_ type: Value.Type) -> PayloadRepresentation {
    if type is AnyObject.Type { return .object }
    if isInline(type) { return .inline }
    return .boxed
  }

  /// Whether values of `type` are stored inline. A property of the type alone, so that a
  /// specialized read knows it at compile time.
  @inlinable @inline(__always)
  static func isInline<Value>(_ type: Value.Type) -> Bool {
    // `_isPOD`: no references to count, so the bits can be copied without a lock.
    _isPOD(type) && MemoryLayout<Value>.size <= MemoryLayout<UInt>.size
  }
}

/// The layout of an entry's key word.
///
/// A key (an ``AssociatedKey`` type) is its type's metadata address, which is aligned and never
/// freed, with ``typeBit`` (which no user-space address has) and its representation in the low
/// bits. Capabilities are keyed by their type's metadata address alone, so its low bits say
/// "object". Bit 2 is clear in every key ID: an inline entry sets it while its key has no value
/// (see ``absentBit``).
@usableFromInline
enum KeyID {
  /// Set in the ID of a key, clear in a capability's.
  @usableFromInline
  static let typeBit: UInt = 1 << (UInt.bitWidth - 2)

  @usableFromInline
  static let representationMask: UInt = 0b11

  /// Set in the key word of an inline entry that keeps its key but has no value.
  static let absentBit: UInt = 0b100

  static func isInline(_ keyID: UInt) -> Bool {
    keyID & representationMask == PayloadRepresentation.inline.rawValue
  }

  /// Whether `keyID` stands for a capability type rather than a key.
  static func isCapability(_ keyID: UInt) -> Bool {
    keyID & typeBit == 0
  }
}

/// An immutable box for a value that is neither a class instance nor inline. Immutable, so a
/// reader may use it after unlocking while a writer stores a new box.
@usableFromInline
final class ValueBox<Value> {
  @usableFromInline
  let value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }
}

/// Holds a value of a weak key. A weak load is atomic, so readers use it after unlocking.
@usableFromInline
final class WeakBox {
  @usableFromInline
  weak var object: AnyObject?

  @usableFromInline
  init(_ object: AnyObject) {
    self.object = object
  }
}

/// What the storage needs of a key, whichever way it was declared: its ID and how its values
/// are held.
@usableFromInline
struct KeyHandle<Value> {
  @usableFromInline
  let id: UInt

  @usableFromInline
  let representation: PayloadRepresentation

  @inlinable
  init(id: UInt, representation: PayloadRepresentation) {
    self.id = id
    self.representation = representation
  }

  @inlinable
  func encode(_ value: Value) -> Payload {
    switch representation {
    case .inline:
      var bits: UInt = 0
      withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
      return Payload(inline: bits)
    // `.object` and `.weak` are chosen only when `Value` is a class type, so the value is a
    // single object reference.
    case .object: return Payload(unsafeBitCast(value, to: AnyObject.self))
    case .weak: return Payload(WeakBox(unsafeBitCast(value, to: AnyObject.self)))
    case .boxed: return Payload(ValueBox(value))
    }
  }

  /// The value of an object, boxed or weak payload at `bits`, consuming the reference to it
  /// that the caller owns (see `AssociationStorage.retainedPayloadBits(for:)`).
  @inlinable @inline(__always)
  func decode(retainedBits bits: UInt) -> Value? {
    // Object payload bits are never 0.
    let address = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
    switch representation {
    case .object:
      // `Value` is a class type: the reference is moved out of a word that holds it, so the
      // caller's reference becomes the value's with no retain or release.
      var word = bits
      return withUnsafeMutableBytes(of: &word) {
        $0.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).move()
      }
    case .boxed:
      return Unmanaged<ValueBox<Value>>.fromOpaque(address).takeRetainedValue().value
    case .weak:
      return Unmanaged<WeakBox>.fromOpaque(address).takeRetainedValue().object.map {
        unsafeBitCast($0, to: Value.self)
      }
    case .inline:
      // Inline payloads are never read as objects.
      return withUnsafeBytes(of: bits) { $0.load(as: Value.self) }
    }
  }

  /// A copy of the value in the box at `bits`, which a read section keeps allocated; the box
  /// is neither retained nor released.
  @inlinable @inline(__always)
  static func unboxed(bits: UInt) -> Value {
    // Box payload bits are never 0.
    Unmanaged<ValueBox<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
      ._withUnsafeGuaranteedRef { $0.value }
  }

  @inlinable
  func decode(_ payload: Payload) -> Value? {
    // Each payload was made by `encode` for this key, whose identity fixes `Value` and the
    // representation; only inline payloads have no object.
    switch representation {
    case .inline: return withUnsafeBytes(of: payload.bits) { $0.load(as: Value.self) }
    case .object: return unsafeBitCast(payload.object!, to: Value.self)
    case .boxed: return unsafeDowncast(payload.object!, to: ValueBox<Value>.self).value
    case .weak:
      return unsafeDowncast(payload.object!, to: WeakBox.self).object.map {
        unsafeBitCast($0, to: Value.self)
      }
    }
  }
}
