internal import AffixRuntimeShims
import Synchronization

/// A reference that does not keep its object alive and reads as `nil` once the object's
/// `deinit` has begun; it is `Sendable` when its object is.
///
/// The one back-reference the mixins use: a capability that fires on a schedule holds its host
/// this way, so that the host's death ends its work rather than being prevented by it.
///
/// ```swift
/// let host = WeakReference(view)
/// scheduler.schedule(after: .seconds(1)) { host.object?.flash() }
/// ```
///
/// For a natively reference-counted object it gives the object no refcount side table, which
/// a `weak var` would, slowing every retain and release of the object for the rest of its life:
/// it pins the object instead (an unowned reference count, which keeps the object's memory but
/// not its life until the reference is dropped) and reads with an atomic try-retain that fails
/// once the object is being deinitialized. Any other object (on Apple platforms, every
/// `NSObject` descendant, whose counts the Objective-C runtime keeps elsewhere) is held by a
/// Swift `weak` reference, and its reference counts are never touched.
///
/// On Apple platforms, as with a `weak var`, making a reference to an `NSObject` descendant from
/// inside its `deinit` traps.
public struct WeakReference<Object: AnyObject>: CustomStringConvertible {
  private let hold: Hold?

  /// Creates a reference to `object` that does not keep it alive.
  ///
  /// A reference made to an object whose `deinit` has begun reads as `nil` from the start and
  /// holds nothing: such an object may not live on the heap, where a pin could keep its memory.
  public init(_ object: Object?) {
    hold = object.flatMap { object in
      guard HostKind.of(object) == .pinned else { return .weak(WeakHold(object)) }
      let address = Unmanaged.passUnretained(object).toOpaque()
      return affix_is_deallocating(address) ? nil : .pinned(Pin(address))
    }
  }

  /// The object, or `nil` once its `deinit` has begun.
  public var object: Object? {
    switch hold {
    case .pinned(let pin)?:
      return Self.object(pinnedAt: pin.address)
    case .weak(let weakHold)?:
      // The hold was made from an `Object`.
      return weakHold.object.map { unsafeDowncast($0, to: Object.self) }
    case nil:
      return nil
    }
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

  /// The object at `address`, retained, or `nil` once its `deinit` has begun. `address` must
  /// come from ``pinnedAddress`` of a reference the caller keeps alive meanwhile.
  @inlinable
  package static func object(pinnedAt address: UnsafeMutableRawPointer) -> Object? {
    guard tryRetain(address) else { return nil }
    return Unmanaged<Object>.fromOpaque(address).takeRetainedValue()
  }

  @usableFromInline
  static func tryRetain(_ address: UnsafeMutableRawPointer) -> Bool {
    affix_try_retain(address)
  }

  /// `WeakReference(Type)` while the object lives, `WeakReference(nil)` after.
  public var description: String {
    object.map { "WeakReference(\(type(of: $0)))" } ?? "WeakReference(nil)"
  }
}

// Checked: a reference's only state is a `Hold`, which is `Sendable`; handing the object to
// another thread is what requires `Object: Sendable`.
extension WeakReference: Sendable where Object: Sendable {}

/// A reference to any object that does not keep it alive and crosses threads: how a
/// capability holds its host.
///
/// A capability is `Sendable`, and its host usually is not (a view, a main-actor model), so a
/// ``WeakReference`` to the host, `Sendable` only when the host is, does not fit in one. This
/// reference is `Sendable` whatever it refers to; what may be done with the object read back
/// is up to its isolation: read it where the host lives (on the main actor for a main-actor
/// host, see ``IsolatedCallback``), or only compare and test it for `nil`.
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
///
/// It holds its object as ``WeakReference`` does, with no refcount side table for a native
/// object.
///
/// `@unchecked Sendable`: it only try-retains or weakly loads its reference, which is
/// thread-safe; whoever gets the object back is responsible for its isolation.
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

  /// The object, or `nil` once its `deinit` has begun.
  ///
  /// `@unsafe`: it hands the object to the thread that asks, whatever the object's isolation,
  /// so `-strict-memory-safety` flags every use. Read it where the object lives (in an
  /// ``IsolatedCallback`` made with the host's isolation, say); to test for life, use
  /// ``isAlive``.
  ///
  /// ```swift
  /// if let view = unsafe host.object as? CardView { /* on the view's isolation */ }
  /// ```
  @unsafe public var object: AnyObject? {
    guard let pinned else { return reference.object }
    return Self.object(pinnedAt: pinned)
  }

  /// Whether the object is alive: its `deinit` has not begun. Safe from any thread, as it
  /// hands out nothing.
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
    WeakReference<AnyObject>.object(pinnedAt: address)
  }

  /// `WeakReference(Type)` while the object lives, `WeakReference(nil)` after.
  public var description: String { reference.description }
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
    ForeignPins.add(address)
  }

  deinit {
    // Uncounted before it is dropped: a sweep reads the object's unowned count, then this
    // count, and must never see the pin gone from the first but not from the second. The
    // runtime's unowned decrement is relaxed, so the fence makes it a release that the sweep's
    // acquire fence pairs with.
    ForeignPins.remove(address)
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

  init(_ object: AnyObject) {
    self.object = object
  }
}
