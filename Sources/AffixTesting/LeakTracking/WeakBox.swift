/// A weak reference to any object that can be kept in a lock.
final class WeakBox: @unchecked Sendable {  // set only in init; weak loads are thread-safe
  weak let object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}
