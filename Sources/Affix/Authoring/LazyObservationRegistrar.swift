public import Observation
import Synchronization

/// An `ObservationRegistrar` that costs a mutation one atomic load until something reads.
///
/// A capability whose state changes often (an animation's fraction, a loading indicator's
/// progress) makes that state observable by conforming to `Observable` and calling this
/// registrar as the `@Observable` macro calls its own: ``access(_:keyPath:)`` in each getter,
/// ``withMutation(of:keyPath:_:)`` around each change. Until the first ``access(_:keyPath:)``,
/// nothing can be tracking the state, and mutations skip Observation entirely; from then on
/// they tell it, as a stored property of an `@Observable` class does.
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
///
/// Call ``withMutation(of:keyPath:_:)`` outside every lock: Observation calls the trackers'
/// `onChange` from it, on the mutating thread, before the change. A mutation that checks
/// just before the first read marks the registrar does not tell that read's tracking: the same
/// window Observation itself has between a tracked read and the moment the tracking is
/// installed, which `Observations` closes by reading again.
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
