public import Observation
import Synchronization

/// An `ObservationRegistrar` that costs a mutation one atomic load until something reads.
///
/// Call ``access(_:keyPath:)`` in each getter and ``withMutation(of:keyPath:_:)`` around each
/// change, outside every lock, as the `@Observable` macro does. See
/// <doc:MixinKitInDetail#Lazy-observation>.
///
/// ```swift
/// public final class Blinker: Capability, Observable {
///   private let observation = LazyObservationRegistrar()
///   private let locked = LockedState(false)
///
///   public var isLit: Bool {
///     observation.access(self, keyPath: \.isLit)
///     return locked.withLock { $0 }
///   }
///
///   func toggle() {
///     // Outside the lock: Observation runs its trackers inside `withMutation`.
///     observation.withMutation(of: self, keyPath: \.isLit) {
///       locked.withLock { $0.toggle() }
///     }
///   }
/// }
/// ```
public struct LazyObservationRegistrar: Sendable {
  private final class Storage: Sendable {
    let wasRead = Atomic<Bool>(false)
    let registrar = ObservationRegistrar()
  }

  private let storage = Storage()

  /// A registrar that nothing has read yet.
  public init() {}

  /// Whether a getter has registered an access: from then on, mutations tell Observation.
  public var hasBeenRead: Bool { storage.wasRead.load(ordering: .acquiring) }

  /// Registers an access to `keyPath` of `subject` with the tracking under way, as
  /// `ObservationRegistrar.access(_:keyPath:)` does; call it in the property's getter.
  public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    // A load first, so that readers on many threads do not write one cache line.
    if !storage.wasRead.load(ordering: .relaxed) {
      storage.wasRead.store(true, ordering: .releasing)
    }
    storage.registrar.access(subject, keyPath: keyPath)
  }

  /// Runs `mutation`, a change of `keyPath` of `subject`, between Observation's `willSet` and
  /// `didSet` once anything has read; only `mutation` before that.
  public func withMutation<Subject: Observable, Member, Result>(
    of subject: Subject, keyPath: KeyPath<Subject, Member>, _ mutation: () throws -> Result
  ) rethrows -> Result {
    guard hasBeenRead else { return try mutation() }
    return try storage.registrar.withMutation(of: subject, keyPath: keyPath, mutation)
  }

  /// Tells Observation that `keyPath` of `subject` is about to change, once anything has read.
  public func willSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    if hasBeenRead { storage.registrar.willSet(subject, keyPath: keyPath) }
  }

  /// Tells Observation that `keyPath` of `subject` has changed, once anything has read.
  public func didSet<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    if hasBeenRead { storage.registrar.didSet(subject, keyPath: keyPath) }
  }
}
