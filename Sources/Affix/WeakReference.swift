internal import AffixRuntimeShims
import Synchronization

/// A reference that does not keep its object alive and reads as `nil` once the object's
/// `deinit` has begun; it is `Sendable` when its object is.
///
/// It adds no refcount side table to a native object, accepts a class-bound protocol type as
/// `Object`, and compares by the object it was made from. See
/// <doc:MixinKitInDetail#Weak-references>.
///
/// ```swift
/// let host = WeakReference(view)
/// scheduler.schedule(after: .seconds(1)) { host.object?.flash() }
/// ```
public struct WeakReference<Object>: CustomStringConvertible {
  private let hold: Hold?
  /// Whether `Object` is a class, read back with no cast; otherwise (a protocol type) each read
  /// casts the object back to `Object`.
  private let isClass: Bool

  /// Creates a reference to `object` that does not keep it alive; made in the object's `deinit`,
  /// it reads `nil` from the start.
  ///
  /// - Parameter object: The object to refer to, or `nil` for a reference to nothing.
  public init(_ object: Object?) where Object: AnyObject {
    hold = object.flatMap { Self.hold($0, identifiedNow: true) }
    isClass = true
  }

  /// A reference for the package's own paths, which takes a weakly held object's identity only
  /// when first compared or hashed: the core makes references while it keeps that identity, and
  /// the testing tools never compare theirs, so neither leaves a serial in a weak referent.
  package init(unidentified object: Object?) where Object: AnyObject {
    hold = object.flatMap { Self.hold($0, identifiedNow: false) }
    isClass = true
  }

  /// Creates a reference to `object`, a value of a class-bound protocol type, that does not keep
  /// it alive; refused, with a report, when `object` is not a class instance.
  ///
  /// - Parameters:
  ///   - object: The object to refer to, or `nil` for a reference to nothing.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  @_disfavoredOverload
  public init(_ object: Object?, fileID: String = #fileID, line: Int = #line) {
    isClass = false
    guard let object else {
      hold = nil
      return
    }
    // A class instance, whatever `Object` says of it: never a value boxed for the occasion,
    // which would die at once, nor a value bridged to an object on Apple platforms.
    guard type(of: object as Any) is AnyObject.Type else {
      Diagnostics.report(
        subsystem: "Affix",
        message: "WeakReference<\(Object.self)> made from a \(type(of: object as Any)), which "
          + "is not a class instance and has no identity to refer to; it reads nil",
        fileID: fileID, line: line)
      hold = nil
      return
    }
    hold = Self.hold(object as AnyObject, identifiedNow: true)
  }

  private static func hold(_ object: AnyObject, identifiedNow: Bool) -> Hold? {
    guard Engine.kind(of: object) == .pinned else {
      let hold = WeakHold(object)
      if identifiedNow { _ = hold.identity }
      return .weak(hold)
    }
    let address = Unmanaged.passUnretained(object).toOpaque()
    return affix_is_deallocating(address) ? nil : .pinned(Pin(address))
  }

  /// The object, or `nil` once its `deinit` has begun.
  public var object: Object? {
    let object: AnyObject?
    switch hold {
    case .pinned(let pin)?:
      object = AnyWeakReference.object(pinnedAt: pin.address)
    case .weak(let weakHold)?:
      object = weakHold.object
    case nil:
      return nil
    }
    guard let object else { return nil }
    // The hold was made from an `Object`: a class is the same reference, a protocol type is
    // cast back to.
    return isClass ? unsafeBitCast(object, to: Object.self) : object as? Object
  }

  /// The address this reference pins, for a caller that keeps the reference alive and wants
  /// to read it with no reference counting: see ``object(pinnedAt:)``. `nil` for a reference
  /// that holds its object weakly, or holds nothing: read ``object`` then.
  package var pinnedAddress: UnsafeMutableRawPointer? {
    guard case .pinned(let pin)? = hold else { return nil }
    return pin.address
  }

  /// Whether this reference holds its object weakly rather than pinned (see ``HostKind``).
  package var isWeak: Bool {
    guard case .weak? = hold else { return false }
    return true
  }

  /// The identity of the object this reference was made from (see <doc:WeakReference#Identity>).
  fileprivate var identity: ReferentIdentity {
    switch hold {
    case .pinned(let pin)?: .address(UInt(bitPattern: pin.address))
    case .weak(let weakHold)?: weakHold.identity
    case nil: .nothing
    }
  }

  /// `WeakReference(Type)` while the object lives, `WeakReference(nil)` after.
  public var description: String {
    object.map { "WeakReference(\(type(of: $0)))" } ?? "WeakReference(nil)"
  }
}

extension WeakReference where Object: AnyObject {
  /// The object at `address`, retained, or `nil` once its `deinit` has begun. `address` must
  /// come from ``pinnedAddress`` of a reference the caller keeps alive meanwhile.
  @inlinable
  package static func object(pinnedAt address: UnsafeMutableRawPointer) -> Object? {
    guard AnyWeakReference.tryRetain(address) else { return nil }
    return Unmanaged<Object>.fromOpaque(address).takeRetainedValue()
  }
}

extension WeakReference: Hashable {
  /// Whether both references were made from the same object, or both from none.
  ///
  /// - Parameters:
  ///   - lhs: A reference.
  ///   - rhs: Another reference.
  /// - Returns: `true` when `lhs` and `rhs` refer to the same object, alive or dead.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.identity == rhs.identity
  }

  /// Hashes the identity of the object this reference was made from.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(identity)
  }
}

// Checked: a reference's only state is a `Hold`, which is `Sendable`; handing the object to
// another thread is what requires `Object: Sendable`.
extension WeakReference: Sendable where Object: Sendable {}

/// A reference to any object that does not keep it alive and crosses threads: how a
/// capability holds its host.
///
/// It is `Sendable` whatever it refers to; read the object back only in the object's isolation,
/// or only compare it and test it for life. See <doc:MixinKitInDetail#A-reference-to-any-object>.
///
/// ```swift
/// final class Blinker: Capability {
///   private let host: AnyWeakReference
///
///   init(host: AnyObject) {
///     self.host = AnyWeakReference(host)
///   }
///
///   var hostIsAlive: Bool { host.isAlive }
/// }
/// ```
public struct AnyWeakReference: @unchecked Sendable, CustomStringConvertible {
  private let reference: WeakReference<AnyObject>
  /// The address `reference` pins (nil when it holds its object weakly), kept beside it so that
  /// ``object`` reads the object without touching the pin: animations read their hosts this
  /// way on every frame. Valid as long as `reference` holds the pin, that is, as long as this.
  private let pinned: UnsafeMutableRawPointer?

  /// Creates a reference to `object` that does not keep it alive.
  ///
  /// ```swift
  /// let host = AnyWeakReference(view)
  /// ```
  public init(_ object: AnyObject?) {
    reference = WeakReference(object)
    pinned = reference.pinnedAddress
  }

  /// See ``WeakReference/init(unidentified:)``: for the core's own references to hosts.
  package init(unidentified object: AnyObject?) {
    reference = WeakReference(unidentified: object)
    pinned = reference.pinnedAddress
  }

  /// The object, or `nil` once its `deinit` has begun; `@unsafe`, as it hands the object to any
  /// thread that asks.
  ///
  /// Read it where the object lives; to test for life, use ``isAlive``. See
  /// <doc:MixinKitInDetail#A-reference-to-any-object>.
  ///
  /// ```swift
  /// if let view = unsafe host.object as? CardView { /* on the view's isolation */ }
  /// ```
  @unsafe public var object: AnyObject? {
    guard let pinned else { return reference.object }
    return Self.object(pinnedAt: pinned)
  }

  /// Whether the object is alive: its `deinit` has not begun. Safe from any thread.
  ///
  /// ```swift
  /// guard host.isAlive else { return }
  /// ```
  public var isAlive: Bool {
    unsafe object != nil
  }

  /// See ``WeakReference/pinnedAddress``.
  package var pinnedAddress: UnsafeMutableRawPointer? { reference.pinnedAddress }

  /// See ``WeakReference/isWeak``.
  package var isWeak: Bool { reference.isWeak }

  /// See ``WeakReference/object(pinnedAt:)``.
  @inlinable
  package static func object(pinnedAt address: UnsafeMutableRawPointer) -> AnyObject? {
    guard tryRetain(address) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
  }

  @usableFromInline
  static func tryRetain(_ address: UnsafeMutableRawPointer) -> Bool {
    affix_try_retain(address)
  }

  /// `WeakReference(Type)` while the object lives, `WeakReference(nil)` after.
  public var description: String { reference.description }
}

extension AnyWeakReference: Hashable {
  /// Whether both references were made from the same object, or both from none: as
  /// ``WeakReference``'s, stable after the object dies.
  ///
  /// - Parameters:
  ///   - lhs: A reference.
  ///   - rhs: Another reference.
  /// - Returns: `true` when `lhs` and `rhs` refer to the same object, alive or dead.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.reference == rhs.reference
  }

  /// Hashes the identity of the object this reference was made from.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(reference)
  }
}

/// Who a reference was made from: what ``WeakReference`` compares and hashes.
private enum ReferentIdentity: Hashable {
  /// Made from no object.
  case nothing
  /// A pinned object's address, which no other object can take while the pin holds it.
  case address(UInt)
  /// A weakly held object's serial number (see `WeakHold.identity`).
  case serial(UInt64)
}

/// The serial number of an object held weakly, kept in its associated storage: the core never
/// hands a dead host's values to a new object at the same address, so a new object there gets a
/// serial of its own.
private enum ReferentSerial: AssociatedKey, HiddenKey {
  static var defaultValue: UInt64? { nil }
}

/// The serial numbers handed out, from 1: a serial is never given twice.
private let lastSerial = Atomic<UInt64>(0)

private func nextSerial() -> UInt64 {
  lastSerial.wrappingAdd(1, ordering: .relaxed).newValue
}

/// How a ``WeakReference`` holds its object: see ``HostKind``.
private enum Hold: Sendable {
  case pinned(Pin)
  case weak(WeakHold)
}

/// Holds one pin on an object's memory for as long as it lives.
///
/// `@unchecked Sendable`: its only state is an immutable address, and the only read through it
/// is the runtime's atomic try-retain.
private final class Pin: @unchecked Sendable {
  let address: UnsafeMutableRawPointer

  init(_ address: UnsafeMutableRawPointer) {
    self.address = address
    affix_pin(address)
    Engine.countPin(at: address)
  }

  deinit {
    // Uncounted before it is dropped: a sweep reads the object's unowned count, then this
    // count, and must never see the pin gone from the first but not from the second. The
    // runtime's unowned decrement is relaxed, so the fence makes it a release that the sweep's
    // acquire fence pairs with.
    Engine.uncountPin(at: address)
    atomicMemoryFence(ordering: .releasing)
    affix_unpin(address)
  }
}

/// Holds an object whose reference counts the core must not touch, through a Swift `weak`
/// reference: the runtime's own weak reference for a native object, the Objective-C runtime's
/// for any other (which also takes tagged pointers, never deallocated, as they are).
///
/// `@unchecked Sendable`: `object` is written once, in `init`, and a weak load is atomic in
/// both runtimes; what the loaded object may be used for is ``WeakReference``'s concern.
private final class WeakHold: @unchecked Sendable {
  weak let object: AnyObject?
  /// The object's serial, 0 until first asked.
  private let serial = Atomic<UInt64>(0)
  /// The object's address, its identity when it is never deallocated (a tagged pointer, a class
  /// object), or `nil`.
  private let immortalAddress: UInt?
  /// Whether the core keeps values for the object, and so its serial: not for a value boxed for
  /// the occasion, whose every reference gets a serial of its own.
  private let hasStorage: Bool

  init(_ object: AnyObject) {
    self.object = object
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let immortal = Engine.isTaggedPointer(address) || object is AnyClass
    immortalAddress = immortal ? address : nil
    if case .unsupported = Engine.kind(of: object) { hasStorage = false } else { hasStorage = true }
  }

  /// The identity of the object: its serial, got or made in its storage while it lives (so
  /// every reference made from it agrees), or a serial of this hold's own when it died before
  /// it was asked (then only copies of this reference equal it). A public initializer asks at
  /// once; the core's own references, when first compared or hashed.
  var identity: ReferentIdentity {
    if let immortalAddress { return .address(immortalAddress) }
    let known = serial.load(ordering: .acquiring)
    if known != 0 { return .serial(known) }
    let made: UInt64
    if hasStorage, let object {
      made = Associations(of: object).value(for: ReferentSerial.self) { nextSerial() }
    } else {
      made = nextSerial()
    }
    let (exchanged, original) = serial.compareExchange(
      expected: 0, desired: made, ordering: .acquiringAndReleasing)
    return .serial(exchanged ? made : original)
  }
}
