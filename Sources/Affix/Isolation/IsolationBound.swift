/// A value that is touched only in one isolation, made `Sendable` by that rule: the checked
/// form of "this state belongs to the main actor" for code that must carry the state through
/// threads that may not touch it (a capability's lock, a scheduler's closure).
///
/// The value is made in its isolation, and reached through `withValue(_:)`, which
/// runs only when its caller names the same isolation, as an `isolated` parameter the compiler
/// proves: a caller elsewhere gets `nil` and `body` never runs. swift-nio's `NIOLoopBound` is
/// the model, with the actor for the event loop and a refusal in place of a crash.
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
///
/// A callback that runs on the value's isolation reaches it with the isolation it is handed:
/// see ``IsolatedCallback/init(on:_:)-(Actor,_)``.
public struct IsolationBound<Value>: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` is reached only through `withValue`, whose `isolated`
  // parameter the compiler proves is the isolation the value was bound to, so that no two
  // threads reach it at once. The initializer is isolated to that actor, so the compiler merges
  // the value into the actor's region: no other isolation keeps a reference to it.

  /// The isolation the value lives in.
  public let isolation: any Actor
  private let storage: Storage

  private final class Storage {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  /// Binds `value` to the caller's isolation, which must be an actor's (the main actor's
  /// included).
  public init(_ value: Value, isolation: isolated (any Actor) = #isolation) {
    self.isolation = isolation
    storage = Storage(value)
  }

  /// Runs `body` with the value when the caller is in the value's isolation, and returns what
  /// it returns; returns `nil` without running it elsewhere.
  ///
  /// `body` runs at once, on the caller's thread: it may touch the value and anything else of
  /// that isolation, and nothing it returns carries the value away (the result is `Sendable`).
  public func withValue<Result: Sendable>(
    isolation caller: isolated (any Actor) = #isolation, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    guard caller === isolation else { return nil }
    return try body(&storage.value)
  }

  /// Whether a caller in `caller` reaches the value: whether it is the value's isolation.
  public func isReachable(from caller: (any Actor)?) -> Bool {
    caller === isolation
  }
}
