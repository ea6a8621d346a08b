/// A weak reference that can cross threads.
///
/// The one weak back-reference the mixins use: a capability that fires on a schedule holds
/// its host this way, so that the host's death ends its work rather than being prevented by
/// it.
///
/// ```swift
/// let host = WeakReference(view)
/// scheduler.schedule(after: .seconds(1)) { host.object?.flash() }
/// ```
public struct WeakReference<Object: AnyObject>: Sendable {
  /// `@unchecked Sendable` because a weak load is atomic; the object it yields follows its own
  /// isolation rule (see ``Associations``), which the caller keeps.
  private final class Box: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
  }

  private let box: Box

  /// Creates a reference to `object` that does not keep it alive.
  public init(_ object: Object?) {
    box = Box(object)
  }

  /// The object, or `nil` once it has died.
  public var object: Object? {
    box.object
  }
}
