/// An object attached to a host under its own type, carrying a mixin's state and work.
///
/// At most one capability of each type lives on a host. It hears ``didAttach(to:)`` once and
/// ``didEnd(_:)`` once, outside every lock, and must not keep its host or itself alive. See
/// <doc:MixinKitInDetail#Capability-lifecycle>.
///
/// ```swift
/// final class Highlighter: Capability {
///   private let host = LockedState<AnyWeakReference?>(nil)
///
///   func didAttach(to host: AnyWeakReference) {
///     self.host.withLock { $0 = host }
///   }
///
///   func didEnd(_ ending: CapabilityEnding) {
///     // cancel timers; `ending` says why
///   }
/// }
///
/// Associations(of: label).attach(Highlighter())
/// let highlighter = Associations(of: label).capability(Highlighter.self)
/// ```
public protocol Capability: AnyObject, Sendable {
  /// Called once the capability is stored on `host`, outside every lock of the storage, before
  /// the call that attached it returns; the default does nothing.
  ///
  /// - Parameter host: The host the capability is attached to, held weakly.
  func didAttach(to host: AnyWeakReference)

  /// Called once when the capability stops being its host's, outside every lock; stop its work
  /// here, idempotently. The default does nothing. See <doc:MixinKitInDetail#Capability-lifecycle>.
  ///
  /// ```swift
  /// func didEnd(_ ending: CapabilityEnding) {
  ///   let token = state.withLock { $0.token.take() }
  ///   token?.cancel()
  /// }
  /// ```
  ///
  /// - Parameter ending: Why the capability ended: removed, replaced or its host died.
  func didEnd(_ ending: CapabilityEnding)
}

extension Capability {
  /// Does nothing.
  public func didAttach(to host: AnyWeakReference) {}

  /// Does nothing.
  public func didEnd(_ ending: CapabilityEnding) {}
}

/// Why a ``Capability`` stopped being its host's, as ``Capability/didEnd(_:)`` hears it.
///
/// ```swift
/// func didEnd(_ ending: CapabilityEnding) {
///   if ending == .hostDied { Diagnostics.report(subsystem: "blink", message: "The host died while blinking.") }
/// }
/// ```
public enum CapabilityEnding: Sendable, Hashable, CustomStringConvertible {
  /// Removed with ``Associations/removeCapability(_:)``.
  case removed
  /// Replaced by another capability of its type, with ``Associations/attach(_:)``; also the
  /// ending of one made for ``Associations/capability(_:orAttach:)`` that lost a race to
  /// another and was never attached.
  case replaced
  /// Its host died; its values, the capability among them, are being released.
  case hostDied

  /// `removed`, `replaced` or `host died`.
  public var description: String {
    switch self {
    case .removed: "removed"
    case .replaced: "replaced"
    case .hostDied: "host died"
    }
  }
}

/// Keys capabilities by their type, and remembers type names for diagnostics.
enum CapabilityKey {
  private static let types = LockedState<[UInt: any Capability.Type]>(
    unchecked: [:], processWide: .capabilityTypes)

  @usableFromInline
  static func id<C: Capability>(of type: C.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(type))
  }

  static func register<C: Capability>(_ type: C.Type) {
    types.withLockUnchecked { $0[id(of: type)] = type }
  }

  static func describe(_ id: UInt) -> AnyAssociatedKey {
    let type = types.withLockUnchecked { $0[id] }
    return AnyAssociatedKey(
      id: id, name: type.map { "\($0)" } ?? "capability", valueType: type ?? Any.self,
      policy: .strong)
  }
}
