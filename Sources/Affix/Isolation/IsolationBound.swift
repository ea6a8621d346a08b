/// A value that is touched only in one isolation, made `Sendable` by that rule, for state carried
/// through threads that may not touch it.
///
/// ``withValue(isolation:_:)`` runs its body only for a caller the compiler proves is in the
/// value's isolation; elsewhere it returns `nil`. See
/// <doc:MixinKitInDetail#Isolation-bound-values>.
///
/// ```swift
/// @MainActor final class Badge {
///   var text = ""
/// }
///
/// final class Labeller: Capability {
///   private let badge: IsolationBound<Badge>
///
///   @MainActor init(badge: Badge) {
///     self.badge = IsolationBound(badge)
///   }
///
///   func label(_ text: String, isolation: isolated (any Actor) = #isolation) {
///     badge.withValue { $0.text = text }  // nil, and nothing done, off the main actor
///   }
/// }
/// ```
public struct IsolationBound<Value>: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is reached only through `withValue`, whose `isolated`
  // parameter the compiler proves is the isolation the value was bound to, so that no two
  // threads reach it at once. The initializer is isolated to that actor, so the compiler merges
  // the value into the actor's region: no other isolation keeps a reference to it.

  /// The isolation the value lives in.
  public let isolation: any Actor
  private let storage: Storage

  /// The value, released in its isolation whoever drops the last copy (see ``OwnerRelease``).
  private final class Storage {
    let isolation: any Actor
    /// Never `nil` but in the `deinit` that hands the value over.
    var value: Value?

    init(_ value: consuming Value?, isolation: any Actor) {
      self.isolation = isolation
      self.value = value
    }

    deinit {
      // The common case, the last copy dropped in the isolation, goes at once: no lock, no
      // allocation. A value of plain bits has no `deinit` to move.
      guard !_isPOD(Value.self), !Engine.isOwnerCurrent(isolation) else { return }
      // Moved out before it is handed over: the isolation may release it at once, and must
      // hold the last reference when it does.
      var moved: Value? = nil
      swap(&moved, &value)
      Engine.handOver(consume moved, to: isolation)
    }
  }

  /// Binds `value` to the caller's isolation, which must be an actor's, where it is released too.
  ///
  /// Made outside any actor, the bound is refused with a report and stays empty. See
  /// <doc:MixinKitInDetail#Isolation-bound-values>.
  ///
  /// - Parameters:
  ///   - value: The value to bind.
  ///   - isolation: The caller's isolation, which the value is bound to.
  public init(_ value: Value, isolation: isolated (any Actor)? = #isolation) {
    guard
      let owner = CallerIsolation.required(
        isolation, by: "IsolationBound(_:)", subsystem: "Affix")
    else {
      self.isolation = Unbound.shared
      storage = Storage(nil, isolation: Unbound.shared)
      return
    }
    self.isolation = owner
    storage = Storage(value, isolation: owner)
  }

  /// Runs `body` with the value when the caller is in the value's isolation, and returns what
  /// it returns; returns `nil` without running it elsewhere.
  ///
  /// `body` holds the value's exclusive access: to call code that may call back in, use
  /// ``value(isolation:)``. See <doc:MixinKitInDetail#Isolation-bound-values>.
  ///
  /// - Parameters:
  ///   - caller: The caller's isolation, which must be the value's.
  ///   - body: Runs at once with the value.
  /// - Returns: What `body` returns, or `nil` when `caller` is another isolation.
  public func withValue<Result: Sendable>(
    isolation caller: isolated (any Actor)? = #isolation, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    guard caller === isolation, storage.value != nil else { return nil }
    return try body(&storage.value!)
  }

  /// The value, when the caller is in the value's isolation; `nil` elsewhere. No access is held
  /// once it returns, so what it returns may call back into this bound.
  ///
  /// ```swift
  /// let decide = handler.value()  // (Event) -> Decision, on the handler's actor
  /// let decision = decide?(event)  // may re-enter `handler` freely
  /// ```
  ///
  /// - Parameter caller: The caller's isolation, which must be the value's.
  /// - Returns: The value, or `nil` when `caller` is another isolation.
  public func value(isolation caller: isolated (any Actor)? = #isolation) -> Value? {
    guard caller === isolation else { return nil }
    return storage.value
  }

  /// Whether a caller in `caller` reaches the value: whether it is the value's isolation.
  public func isReachable(from caller: (any Actor)?) -> Bool {
    caller === isolation
  }
}

/// The isolation of a refused ``IsolationBound``, which holds nothing: no caller is ever on it.
private actor Unbound {
  static let shared = Unbound()
}
