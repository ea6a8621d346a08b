/// An immutable box for a value that is not a class instance. Immutable, so a reader may use
/// it after unlocking while a writer stores a new box.
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

extension AssociatedKey {
  @inlinable
  func encode(_ value: Value) -> Payload {
    let object: AnyObject =
      switch representation {
      // `representation` is `.object` or `.weak` only when `Value` is a class type, so the
      // value is a single object reference.
      case .object: unsafeBitCast(value, to: AnyObject.self)
      case .boxed: ValueBox(value)
      case .weak: WeakBox(unsafeBitCast(value, to: AnyObject.self))
      }
    return Payload(object)
  }

  @inlinable
  func decode(_ payload: Payload) -> Value? {
    let object = payload.object
    return switch representation {
    // Each payload was made by `encode` for this key, whose identity fixes `Value`.
    case .object: unsafeBitCast(object, to: Value.self)
    case .boxed: unsafeDowncast(object, to: ValueBox<Value>.self).value
    case .weak:
      unsafeDowncast(object, to: WeakBox.self).object.map { unsafeBitCast($0, to: Value.self) }
    }
  }
}
