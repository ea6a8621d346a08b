/// An object attached to a host under its own type, carrying a mixin's state and work.
///
/// A capability is how a mixin lives on a host: Loading's controller, a dance handle, a drag
/// body. Conforming the host to the mixin's protocol is the static way to reach it; attaching
/// it through ``Associations`` is the runtime way, for objects whose type you do not own.
/// Either way there is at most one capability of each type per host.
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
///
/// ## Lifecycle
///
/// A capability hears of its attachment once, through ``didAttach(to:)``, and of its end once,
/// through ``didEnd(_:)``, with the reason: removed, replaced by another of its type, or its
/// host died. Both are called outside every lock of the library, so they may use the host's
/// associations (except the dead host's: no one can reach those any more). `didAttach` always
/// comes first: an end that arrives before it has returned (a value observer, the replaced
/// capability's `didEnd(.replaced)` or `didAttach` itself removing the capability) is told
/// as soon as `didAttach` returns, before the call that attached it returns.
///
/// Its host's death reaches it when the host's values are released: at the next sweep for a
/// host in the shared table (by the library's background sweeper, at most about 2 s later, or
/// at once in ``AssociationTable/sweep()``), or in the host's own deinit for an
/// ``AssociationOwner``. It never runs on a thread that only wrote a value, nor while a lock is
/// held.
///
/// A capability that runs work on a schedule must not keep its host alive: hold it through an
/// ``AnyWeakReference`` (as ``didAttach(to:)`` hands it over). Nor must it keep itself alive:
/// the closures it hands a scheduler or a clock capture `[weak self]`, or state it owns, never
/// `self` strongly, or the capability outlives its host and its end.
///
/// Every requirement has a default that does nothing.
public protocol Capability: AnyObject, Sendable {
  /// Called once the capability is stored on `host`, outside every lock of the storage, before
  /// the call that attached it returns.
  ///
  /// The default does nothing.
  ///
  /// ```swift
  /// func didAttach(to host: AnyWeakReference) {
  ///   state.withLock { $0.host = host }
  /// }
  /// ```
  func didAttach(to host: AnyWeakReference)

  /// Called once when the capability stops being its host's: removed, replaced by another of
  /// its type, or its host died. Stop the capability's work here: cancel its timers and
  /// subscriptions, resume its waiters.
  ///
  /// Called outside every lock of the library; for ``CapabilityEnding/hostDied`` on the thread
  /// that releases the host's values (see the lifecycle above). It must be idempotent where the
  /// capability's own code may call it too. The default does nothing.
  ///
  /// ```swift
  /// func didEnd(_ ending: CapabilityEnding) {
  ///   let token = state.withLock { $0.token.take() }
  ///   token?.cancel()
  /// }
  /// ```
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
