internal import AffixRuntimeShims

/// A reference that does not keep its object alive and reads as `nil` once the object's
/// `deinit` has begun; it can cross threads.
///
/// The one back-reference the mixins use: a capability that fires on a schedule holds its host
/// this way, so that the host's death ends its work rather than being prevented by it.
///
/// ```swift
/// let host = WeakReference(view)
/// scheduler.schedule(after: .seconds(1)) { host.object?.flash() }
/// ```
///
/// Unlike a `weak var`, it gives the object no refcount side table, which would slow every
/// retain and release of the object for the rest of its life. It pins the object instead (an
/// unowned reference count, which keeps the object's memory but not its life until the
/// reference is dropped) and reads with an atomic try-retain that fails once the object is
/// being deinitialized.
public struct WeakReference<Object: AnyObject>: Sendable, CustomStringConvertible {
  private let pin: Pin?

  /// Creates a reference to `object` that does not keep it alive.
  ///
  /// A reference made to an object whose `deinit` has begun reads as `nil` from the start and
  /// holds nothing: such an object may not live on the heap, where a pin could keep its memory.
  public init(_ object: Object?) {
    pin = object.flatMap { object in
      let address = Unmanaged.passUnretained(object).toOpaque()
      return affix_is_deallocating(address) ? nil : Pin(address)
    }
  }

  /// The object, or `nil` once its `deinit` has begun.
  public var object: Object? {
    guard let address = pin?.address, affix_try_retain(address) else { return nil }
    return Unmanaged<Object>.fromOpaque(address).takeRetainedValue()
  }

  /// The address this reference pins, for a caller that keeps the reference alive and wants
  /// to read it with no reference counting: see ``object(pinnedAt:)``.
  package var pinnedAddress: UnsafeMutableRawPointer? { pin?.address }

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
    ForeignPins.remove(address)
    affix_unpin(address)
  }
}
