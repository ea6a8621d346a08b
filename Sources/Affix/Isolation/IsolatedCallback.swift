import Dispatch
import Synchronization

/// User code handed to a library with the isolation it was written in, so that it runs there.
///
/// A completion added from the main actor may touch main-actor state: `observe` and every
/// mixin's callback call through this type. Calls run one at a time, in the order they were made,
/// and the closure is released in its isolation too. Which spelling to use, where each call runs
/// and how the release works: Affix's article "Callbacks in their isolation".
///
/// ```swift
/// @MainActor final class Status {
///   var text = ""
///   func saved() -> IsolatedCallback<String> {
///     IsolatedCallback { [weak self] in self?.text = $0 }  // later, from any thread: ("Saved")
///   }
/// }
/// ```
public struct IsolatedCallback<Argument: Sendable>: @unchecked Sendable {
  // `@unchecked Sendable`: `body` may capture its isolation's state, and it is only ever called
  // on that isolation (see `callAsFunction(_:)`), which is what makes that state safe to reach.
  // This is the one place the library needs the promise; a mixin built on this type needs none.

  /// The isolation the callback runs in; `nil` for a nonisolated one.
  public let isolation: (any Actor)?
  /// The closure, for the retain-path reflection; call it through `callAsFunction(_:)`.
  var body: (Argument) -> Void { calls.body }
  /// The closure and the calls made and not yet run, in order, shared by every copy.
  private let calls: CallbackCore<Argument>

  /// Wraps `body`, written in `isolation`, to be called there.
  ///
  /// Made outside any actor, it reports it and never calls `body` (see "The spellings" in
  /// Affix's article "Callbacks in their isolation").
  ///
  /// - Parameters:
  ///   - isolation: Where `body` was written and runs.
  ///   - body: The user code to call.
  ///
  /// ```swift
  /// @MainActor func remember(_ label: Label) {
  ///   let show = IsolatedCallback<String> { label.text = $0 }
  ///   show("Saved")  // on the main actor
  /// }
  /// ```
  public init(
    isolation: isolated (any Actor)? = #isolation, _ body: @escaping (Argument) -> Void
  ) {
    guard
      let isolation = CallerIsolation.required(
        isolation, by: "IsolatedCallback(isolation:)", subsystem: "Affix")
    else {
      self.init(unchecked: nil) { _ in }
      return
    }
    self.init(unchecked: isolation, body)
  }

  /// Wraps `body`, which asks for no isolation, to be called on whichever thread calls it.
  ///
  /// `@Sendable`, as it runs away from the code that wrote it (on the scheduler's thread, the
  /// writer's): the compiler refuses one that mutates that code's local state.
  ///
  /// - Parameter body: The user code to call.
  ///
  /// ```swift
  /// let count = Counter()  // Sendable
  /// let tick = IsolatedCallback<Int>(nonisolated: { count.add($0) })
  /// tick(1)  // here, on this thread
  /// ```
  @_disfavoredOverload
  public init(nonisolated body: @escaping @Sendable (Argument) -> Void) {
    self.init(unchecked: nil, body)
  }

  /// Wraps `body`, which may run anywhere, to be called on `isolation`.
  ///
  /// For a capability that keeps an actor (the host's) and hands it work that touches only
  /// `Sendable` state, such as itself.
  ///
  /// - Parameters:
  ///   - isolation: Where calls run; `nil` runs them on the caller's thread.
  ///   - body: The user code to call.
  ///
  /// ```swift
  /// let frames = IsolatedCallback<Void>(on: hostActor) { [weak self] in self?.tick() }
  /// ```
  public init(on isolation: (any Actor)?, _ body: @escaping @Sendable (Argument) -> Void) {
    self.init(unchecked: isolation, body)
  }

  /// Wraps `body` to be called on `isolation`, which `body` receives as its `isolated` parameter.
  ///
  /// The compiler then lets `body` touch what belongs there, such as an `IsolationBound` value
  /// of that isolation, with no other proof.
  ///
  /// - Parameters:
  ///   - isolation: Where calls run.
  ///   - body: The user code to call, given `isolation`.
  ///
  /// ```swift
  /// let show = IsolatedCallback<String>(on: badge.isolation) { isolation, text in
  ///   badge.withValue { $0.text = text }
  /// }
  /// ```
  public init(
    on isolation: any Actor, _ body: @escaping @Sendable (isolated any Actor, Argument) -> Void
  ) {
    // Every call runs on `isolation` (see `run`), which `assumeIsolated` checks and hands on.
    self.init(unchecked: isolation) { argument in
      Self.call(body, on: isolation, with: argument)
    }
  }

  private static func call<A: Actor>(
    _ body: @Sendable (isolated any Actor, Argument) -> Void, on actor: A, with argument: Argument
  ) {
    actor.assumeIsolated { actor in body(actor, argument) }
  }

  /// Wraps `body` for `isolation` without the compiler's check that `body` was written there:
  /// the library's own, for `Associations.observe(_:isolation:_:)`, whose nonisolated caller
  /// hands it a closure for the writer's thread. Not public: a third party's mixin uses a
  /// checked spelling.
  ///
  /// ```swift
  /// public func onBlink(
  ///   isolation: isolated (any Actor)? = #isolation, _ body: @escaping () -> Void
  /// ) {
  ///   let callback = IsolatedCallback<Void>(unchecked: isolation) { body() }
  ///   state.withLock { $0.callbacks.append(callback) }
  /// }
  /// ```
  package init(unchecked isolation: (any Actor)?, _ body: @escaping (Argument) -> Void) {
    self.init(unchecked: isolation, coalescingPast: nil, body)
  }

  /// A callback whose waiting calls are bounded: once `bound` calls wait to run, a call made
  /// after the last of them replaces it, so that the newest argument is the one delivered and
  /// the order is kept. For observers, which want the newest value rather than every one; a
  /// mixin's calls must all run, and use the callbacks above, which keep every call.
  init(
    unchecked isolation: (any Actor)?, coalescingPast bound: Int?,
    _ body: @escaping (Argument) -> Void
  ) {
    self.isolation = isolation
    self.calls = CallbackCore(isolation: isolation, coalescingPast: bound, body)
  }

  /// How many calls wait to run now, and the most that ever waited at once, for every copy.
  ///
  /// See "Order and place" in Affix's article "Callbacks in their isolation".
  ///
  /// ```swift
  /// #expect(repaint.backlog.peak <= 1)  // a repaint coalesced while the main actor was held
  /// ```
  public var backlog: Backlog {
    calls.backlog
  }

  /// Whether the caller is in the callback's isolation, where a call made now *may* run inline.
  ///
  /// `true` promises nothing about the next call, which also waits for earlier ones; `false`
  /// means a call made now never runs before returning (see "Order and place" in Affix's
  /// article "Callbacks in their isolation").
  ///
  /// ```swift
  /// // A main-actor callback, asked off the main queue: every call made here is queued.
  /// #expect(!callback.runsInline)
  /// ```
  public var runsInline: Bool {
    Self.runsInline(in: isolation)
  }

  /// Whether a callback of `isolation` called now would run inline, when no earlier call waits.
  ///
  /// Always for no isolation, on the main queue for the main actor, never for another actor:
  /// the question ``runsInline`` asks, for code that has an isolation and no callback.
  ///
  /// - Parameter isolation: The isolation a callback would have.
  /// - Returns: Whether its call made here would run before returning.
  ///
  /// ```swift
  /// if IsolatedCallback<Void>.runsInline(in: MainActor.shared) { /* on the main queue */ }
  /// ```
  public static func runsInline(in isolation: (any Actor)?) -> Bool {
    guard let isolation else { return true }
    return isolation === MainActor.shared && MainQueue.isCurrent
  }

  /// Calls the closure on its isolation, after every earlier call.
  ///
  /// It runs before returning when the caller is there (see ``runsInline``) and no earlier call
  /// waits, and is enqueued there otherwise.
  ///
  /// - Parameter argument: What the closure is called with.
  ///
  /// ```swift
  /// callback("Saved")
  /// ```
  public func callAsFunction(_ argument: Argument) {
    deliver(argument, inTurn: issueTurn())
  }

  /// Waits until every call made before this one has run; at once when nothing waits, and not for
  /// calls made while it waits.
  ///
  /// A mixin's own waits end with it, so that they return only after the host has written the
  /// work they queued.
  ///
  /// ```swift
  /// public func blinkFinished() async {
  ///   await run.finished()
  ///   await toggle.delivered()  // the last toggle has been written to the host
  /// }
  /// ```
  public nonisolated(nonsending) func delivered() async {
    await calls.delivered()
  }

  /// Takes the next place in the order of calls, for a call to make with
  /// ``deliver(_:inTurn:)``: a caller that takes it under its own lock orders its calls as
  /// that lock orders them, and then makes the call after unlocking. Every turn taken must be
  /// delivered, or the calls after it never run.
  package func issueTurn() -> UInt64 {
    calls.issueTurn()
  }

  /// Makes the call that took `turn`: it runs once every earlier turn has run.
  package func deliver(_ argument: Argument, inTurn turn: UInt64) {
    let here = runsInline
    var replaced: OrderedCalls.Job?
    let arrival = calls.arrive(
      turn: turn, runsHere: here, job: { { self.run(argument) } }, replaced: &replaced)
    // The call a coalescing callback dropped, and the argument it held, go here, unlocked.
    replaced = nil
    switch arrival {
    case .leave: return
    case .runNow:
      // The common case: nothing waits and this is the place to run. The argument never
      // entered the queue.
      run(argument)
      runWaiting()
    case .runHere: runWaiting()
    case .schedule:
      // Only an actor's calls are scheduled: a nonisolated call always runs here.
      guard let isolation else { return runScheduled() }
      if isolation === MainActor.shared {
        Task { @MainActor in self.runScheduled() }
      } else {
        Task { await Self.runScheduled(self, on: isolation) }
      }
    }
  }

  private static func runScheduled(_ callback: IsolatedCallback, on actor: isolated any Actor) {
    callback.runScheduled()
  }

  /// The scheduled run, on the callback's isolation.
  private func runScheduled() {
    if calls.startScheduled() { runWaiting() }
  }

  /// Runs the calls whose turn has come, in turn, until none is left; this thread holds the
  /// right to run them.
  private func runWaiting() {
    while let job = calls.next() { job() }
  }

  /// Runs one call; this thread holds the right to run, on the callback's isolation.
  ///
  /// No `MainActor.assumeIsolated` for a main-actor callback: every path here is already on
  /// the main actor, an inline call because ``runsInline`` found the main queue, a scheduled
  /// one because it runs in a main-actor task, and the check would cost a frame's write on a
  /// main-actor host as much again.
  private func run(_ argument: Argument) {
    calls.body(argument)
  }
}

/// A callback's closure, with its calls: released in the callback's isolation, whoever drops
/// the last copy of the callback (see ``OwnerRelease``), since what the closure captured may be
/// that isolation's state.
private final class CallbackCore<Argument>: OrderedCalls, @unchecked Sendable {
  // `@unchecked Sendable`: `body` is only called on `isolation` (see
  // `IsolatedCallback.callAsFunction(_:)`) and released there (`deinit`).
  let isolation: (any Actor)?
  /// The closure; swapped for an empty one only in the `deinit` that hands it over.
  private(set) var body: (Argument) -> Void

  init(
    isolation: (any Actor)?, coalescingPast bound: Int?, _ body: @escaping (Argument) -> Void
  ) {
    self.isolation = isolation
    self.body = body
    super.init(coalescingPast: bound)
  }

  deinit {
    // The common case, the last copy dropped in the isolation, goes at once: no lock, no
    // allocation. A nonisolated closure is `@Sendable`, released anywhere.
    guard let isolation, !Engine.isOwnerCurrent(isolation) else { return }
    // Moved out before it is handed over: the isolation may release it at once, and must
    // hold the closure's last reference when it does.
    var moved: (Argument) -> Void = { _ in }
    swap(&moved, &body)
    Engine.handOver(consume moved, to: isolation)
  }
}
