import Synchronization

/// An object attached to a host under its own type, carrying a mixin's state and work.
///
/// A capability is how a mixin lives on a host: Loading's controller, a dance handle, a drag
/// body. Conforming the host to the mixin's protocol is the static way to reach it; attaching
/// it through ``Associations`` is the runtime way, for objects whose type you do not own.
/// Either way there is at most one capability of each type per host.
///
/// ```swift
/// final class Highlighter: Capability {
///   func didDetach() { /* cancel timers */ }
/// }
///
/// Associations(of: label).attach(Highlighter())
/// let highlighter = Associations(of: label).capability(Highlighter.self)
/// ```
///
/// Capabilities are released with their host's other values: when the host dies, at the next
/// sweep (or at once, for an ``AssociationOwner``). A capability that runs work on a schedule
/// must not keep its host alive: hold the host through a ``WeakReference``.
public protocol Capability: AnyObject, Sendable {
  /// Stops the capability's work: cancels its timers and subscriptions.
  ///
  /// Called when the capability is detached or replaced by another of its type, outside every
  /// lock of the storage. It must be idempotent.
  func didDetach()
}

/// Keys capabilities by their type, and remembers type names for diagnostics.
enum CapabilityKey {
  private static let types = Mutex<[UInt: any Capability.Type]>([:])

  @usableFromInline
  static func id<C: Capability>(of type: C.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(type))
  }

  static func register<C: Capability>(_ type: C.Type) {
    types.withLock { $0[id(of: type)] = type }
  }

  static func describe(_ id: UInt) -> AnyAssociatedKey {
    let type = types.withLock { $0[id] }
    return AnyAssociatedKey(
      id: id, name: type.map { "\($0)" } ?? "capability", valueType: type ?? Any.self,
      policy: .strong)
  }
}
