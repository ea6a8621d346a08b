import Dispatch

/// User code handed to a mixin together with the isolation it was written in, so that it runs
/// there: a completion added from the main actor may touch main-actor state.
///
/// The mixins take callbacks as `isolation: isolated (any Actor)? = #isolation` plus a closure
/// that is not `@Sendable`. A closure that is not `@Sendable` is isolated to the context that
/// writes it, so the compiler lets it touch that context's state; the `isolation` argument
/// names that context, and this type calls the closure there and nowhere else:
///
/// - isolated to the main actor: at once when called on the main queue (where
///   `FrameClock.shared` and `DispatchScheduler.main` run, and the main actor's executor),
///   otherwise later on the main actor;
/// - isolated to another actor: later, on that actor;
/// - nonisolated (`nil`): at once, on the thread that calls it, which is the scheduler's context
///   (the code that added it was told to run there too, as the host's properties are).
///
/// `@unchecked Sendable`: `body` may capture its isolation's state, and it is only ever called
/// on that isolation, as above.
package struct IsolatedCallback<Argument: Sendable>: @unchecked Sendable {
  package let isolation: (any Actor)?
  private let body: (Argument) -> Void

  package init(isolation: (any Actor)?, _ body: @escaping (Argument) -> Void) {
    self.isolation = isolation
    self.body = body
  }

  /// Wraps a `@Sendable` closure, which may run anywhere.
  package init(sendable body: @escaping @Sendable (Argument) -> Void) {
    self.isolation = nil
    self.body = body
  }

  /// Whether a call now runs before returning, rather than later on the callback's actor.
  package var runsInline: Bool {
    guard let isolation else { return true }
    return isolation === MainActor.shared && MainQueue.isCurrent
  }

  /// Calls the closure on its isolation: before returning when that is where the caller is
  /// (see ``runsInline``), otherwise enqueued there.
  package func callAsFunction(_ argument: Argument) {
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

/// Tells whether code runs on the main queue, the main actor's executor.
///
/// Not `Thread.isMainThread`: where a program's main thread hands the main queue to Dispatch
/// (`dispatch_main()`, as an `async` entry point does on Linux), the main queue, and the main
/// actor with it, runs on other threads.
package enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main queue.
  package static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
