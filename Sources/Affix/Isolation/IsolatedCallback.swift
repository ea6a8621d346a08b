import Dispatch

/// User code handed to a library together with the isolation it was written in, so that it runs
/// there: a completion added from the main actor may touch main-actor state.
///
/// `Associations.observe(_:isolation:_:)` calls its observers through this type, and so does
/// every mixin's callback. A public API takes a callback as
/// `isolation: isolated (any Actor)? = #isolation` plus a closure that is not `@Sendable`. A
/// closure that is not `@Sendable` is isolated to the context that writes it, so the compiler
/// lets it touch that context's state; the `isolation` argument names that context, and this
/// type calls the closure there and nowhere else. It is `Sendable` itself, so a `Sendable`
/// capability can keep it and call it from a scheduler's thread:
///
/// ```swift
/// public func onBlink(
///   isolation: isolated (any Actor)? = #isolation, _ body: @escaping () -> Void
/// ) {
///   let callback = IsolatedCallback<Void>(isolation: isolation) { body() }
///   state.withLock { $0.callbacks.append(callback) }  // later, from the clock: callback(())
/// }
/// ```
///
/// Where a call runs, by the isolation it was made with:
/// - the main actor: at once when called on the main queue (where `FrameClock.shared` and
///   `DispatchScheduler.main` run, and the main actor's executor), otherwise later on the main
///   actor;
/// - another actor: later, on that actor;
/// - nonisolated (`nil`): at once, on the thread that calls it, which is the scheduler's
///   context (code written there was told to run there).
///
/// It is also how a mixin writes to its host in the host's isolation: make one with the
/// isolation of the call that started the work, and write the host's properties in its body.
public struct IsolatedCallback<Argument: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: `body` may capture its isolation's state, and it is only ever called
  // on that isolation (see `callAsFunction(_:)`), which is what makes that state safe to reach.
  // This is the one place the library needs the promise; a mixin built on this type needs none.

  /// The isolation the callback runs in; `nil` for a nonisolated one.
  public let isolation: (any Actor)?
  /// The closure, for the retain-path reflection; call it through `callAsFunction(_:)`.
  let body: (Argument) -> Void

  /// Wraps `body`, written in `isolation`, to be called there. Pass the isolation `body` was
  /// written in and no other: `#isolation`, or the `isolated` parameter of the public method
  /// that took `body`, kept as long as needed.
  ///
  /// ```swift
  /// @MainActor func remember(_ label: Label) {
  ///   let show = IsolatedCallback<String>(isolation: #isolation) { label.text = $0 }
  ///   show("Saved")  // on the main actor
  /// }
  /// ```
  public init(isolation: (any Actor)?, _ body: @escaping (Argument) -> Void) {
    self.isolation = isolation
    self.body = body
  }

  /// Whether a call now runs before returning, rather than later on the callback's actor.
  ///
  /// ```swift
  /// if !callback.runsInline { /* the call will only be enqueued: keep state consistent */ }
  /// ```
  public var runsInline: Bool {
    guard let isolation else { return true }
    return isolation === MainActor.shared && MainQueue.isCurrent
  }

  /// Calls the closure on its isolation: before returning when that is where the caller is
  /// (see ``runsInline``), otherwise enqueued there.
  ///
  /// ```swift
  /// callback("Saved")
  /// ```
  public func callAsFunction(_ argument: Argument) {
    guard let isolation else { return body(argument) }
    if isolation === MainActor.shared {
      if MainQueue.isCurrent {
        // The main actor's executor is the main queue: this is the main actor.
        MainActor.assumeIsolated { body(argument) }
      } else {
        Task { @MainActor in self.body(argument) }
      }
      return
    }
    Task { await Self.run(self, with: argument, on: isolation) }
  }

  private static func run(
    _ callback: IsolatedCallback, with argument: Argument, on actor: isolated any Actor
  ) {
    callback.body(argument)
  }
}
