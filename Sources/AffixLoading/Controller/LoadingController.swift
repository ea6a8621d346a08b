public import Affix
public import AffixScheduling
public import Foundation
public import Observation

/// The state and timing of one host's loading indicator: the capability behind ``Loading``.
///
/// `start` schedules the indicator to appear after the grace time; a `stop` before then cancels
/// it, so fast work shows nothing at all. Once visible, the indicator stays for at least the
/// minimum show time, so it never flickers, and ticks at a steady interval if it wants ticks
/// (see ``LoadingIndicator/wantsTicks``). Progress is indeterminate until the work reports a
/// fraction with `update(progress:)` or hands over a Foundation `Progress` with
/// ``follow(_:fileID:line:)``. Starts nest: n starts need n stops, and an extra stop is reported, not
/// fatal.
///
/// Every indicator call runs in the isolation the controller was created in (see
/// ``LoadingIndicator``), never under the controller's lock. The controller holds its host
/// weakly: once the host is gone, a visible indicator disappears with
/// ``LoadingOutcome/cancelled`` (noticed at its next tick, or when the host's values are
/// released), and the controller does no more work.
///
/// Conform a class to ``Loading`` to get a controller automatically, or attach one at run time
/// to an object whose type you do not own:
///
/// ```swift
/// let loading = LoadingController.attach(to: task, indicator: TerminalSpinner.standardError())
/// loading.start(message: "Resolving")
/// do {
///   try await task.resolve()  // suspends, so the main queue is free to draw the indicator
///   loading.stop()
/// } catch {
///   loading.stop(.failure(error))  // not `defer { loading.stop() }`: that reports success
///   throw error
/// }
/// ```
///
/// Work that does not suspend (a synchronous computation on the main thread) keeps the main
/// queue busy, and an indicator ticked there never draws: time such work on another
/// clock, or run it through the hostless
/// ``withLoading(message:indicator:clock:options:fileID:line:_:)``, which draws on a queue
/// of its own.
///
/// Its public state (``state``, ``nestingDepth`` and ``isLoading``, ``message``, ``progress``,
/// ``outcome``) takes part in Swift Observation: a SwiftUI view, a UIKit update method or an
/// `Observations` sequence that reads it is told when it changes, on the thread that changes
/// it (the caller's for `start`, `stop` and the updates; the clock's when the indicator
/// appears or hides), before the change.
public final class LoadingController: Capability, Observable {
  /// How many calls wait for the indicator's isolation now, and the most that ever did: while
  /// the isolation is busy, updates join the last call on its way (see `IndicatorChannel.send`).
  package var indicatorBacklog: Backlog { channel.backlog }

  /// The clock that times the indicator and calls it.
  public let clock: any SchedulingClock

  /// The timing rules, with unusable values already replaced.
  public let options: LoadingOptions

  private let host: AnyWeakReference?
  private let locked = LockedState(State())
  /// Tells Observation of changes of the public state, once anything has read it.
  private let observation = LazyObservationRegistrar()
  /// Tasks waiting in `settled()`.
  private let waiters = Waiters<Void>()
  private let channel: IndicatorChannel

  /// Creates a controller.
  ///
  /// - Parameters:
  ///   - host: The object the loading belongs to, held weakly; when it dies, the controller
  ///     stops for good. `nil` for a controller that belongs to no object.
  ///   - indicator: What to show.
  ///   - clock: Times the indicator and calls it on its context; the main queue by default.
  ///   - options: The timing rules. Unusable values are replaced and reported through
  ///     `Diagnostics`.
  ///   - isolation: Where the indicator is called: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a report of unusable options.
  ///   - line: The caller's line, for a report of unusable options.
  public init(
    host: AnyObject? = nil, indicator: any LoadingIndicator,
    clock: any SchedulingClock = DispatchClock.main, options: LoadingOptions = .standard,
    isolation: isolated (any Actor) = #isolation, fileID: String = #fileID, line: Int = #line
  ) {
    self.host = host.map { AnyWeakReference($0) }
    self.channel = IndicatorChannel(indicator: indicator, isolation: isolation)
    self.clock = clock
    self.options = options.validated(fileID: fileID, line: line)
  }

  /// A controller of no object whose `Sendable` indicator is called on the clock's
  /// context, whatever the caller's isolation.
  init(
    hostless indicator: any LoadingIndicator & Sendable, clock: any SchedulingClock,
    options: LoadingOptions, fileID: String, line: Int
  ) {
    self.host = nil
    self.channel = IndicatorChannel(sendable: indicator)
    self.clock = clock
    self.options = options.validated(fileID: fileID, line: line)
  }

  /// Attaches a new controller to `host` at run time, replacing (and detaching) one already
  /// there, and returns it.
  ///
  /// This gives loading to an object that does not conform to ``Loading``; look the controller
  /// up again with ``attached(to:)``. Unusable options are replaced and reported with the
  /// caller's `fileID` and `line`.
  @discardableResult
  public static func attach<Host: AnyObject>(
    to host: Host, indicator: any LoadingIndicator,
    clock: any SchedulingClock = DispatchClock.main, options: LoadingOptions = .standard,
    isolation: isolated (any Actor) = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> LoadingController {
    Associations(of: host).attach(
      LoadingController(
        host: host, indicator: indicator, clock: clock, options: options,
        isolation: isolation, fileID: fileID, line: line))
  }

  /// The controller attached to `host`, if any.
  public static func attached<Host: AnyObject>(to host: Host) -> LoadingController? {
    Associations(of: host).capability(LoadingController.self)
  }

  /// Where the indicator is in its life.
  public var state: LoadingState {
    observation.access(self, keyPath: \.state)
    return locked.withLock { $0.phase }
  }

  /// The number of starts not yet balanced by a stop.
  public var nestingDepth: Int {
    observation.access(self, keyPath: \.nestingDepth)
    return locked.withLock { $0.depth }
  }

  /// Whether work is in progress: some start is not yet balanced by a stop.
  public var isLoading: Bool {
    nestingDepth > 0
  }

  /// The message of the work in progress, `nil` when it has none or nothing is loading.
  public var message: String? {
    observation.access(self, keyPath: \.message)
    return locked.withLock { $0.message }
  }

  /// How far the work in progress is, in `0...1`; `nil` while indeterminate or idle.
  public var progress: Double? {
    observation.access(self, keyPath: \.progress)
    return locked.withLock { $0.progress }
  }

  /// The outcome the indicator will show when the work ends: ``LoadingOutcome/success``
  /// unless a stop reported another, until the next piece of work starts.
  public var outcome: LoadingOutcome {
    observation.access(self, keyPath: \.outcome)
    return locked.withLock { $0.outcome }
  }

  /// Starts a piece of loading work.
  ///
  /// The first start schedules the indicator to appear after the grace time, with `message`.
  /// A start while work is already in progress only nests (its message is ignored); a start
  /// while the indicator is finishing keeps it on screen, shows `message`, and ends with its
  /// own outcome.
  ///
  /// - Parameters:
  ///   - message: The indicator's message.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func start(message: String? = nil, fileID: String = #fileID, line: Int = #line) {
    guard isHostAlive else {
      Diagnostics.report(
        subsystem: "loading",
        message: "start was called after the loading host died; nothing will be shown.",
        fileID: fileID, line: line)
      return
    }
    let now = clock.now
    let (appear, cancelled, newMessage, clearsProgress) = change {
      state -> (UInt64?, CancellationToken?, String??, Bool) in
      state.depth += 1
      switch state.phase {
      case .idle:
        state.message = message
        state.outcome = .success
        state.progress = nil
        state.followed = nil
        let cancelled = state.advanceStep()
        state.phase = .pending(appearsAt: now + options.graceTime)
        return (state.step, cancelled, nil, false)
      case .pending, .visible:
        return (nil, nil, nil, false)
      case .finishing(let since, _):
        // New work, not the old one resumed: its outcome, its message, and no progress yet.
        state.phase = .visible(since: since)
        state.outcome = .success
        let changed = state.message != message
        state.message = message
        let hadProgress = state.progress != nil
        state.progress = nil
        state.followed = nil
        return (nil, state.advanceStep(), changed ? .some(message) : nil, hadProgress)
      }
    }
    cancelled?.cancel()
    if let newMessage { channel.send(IndicatorUpdate(message: .some(newMessage))) }
    if clearsProgress { channel.send(IndicatorUpdate(progress: .some(nil))) }
    if let appear { schedule(.appear, step: appear, after: options.graceTime) }
  }

  /// Changes the message of the work in progress; a visible indicator shows it at once.
  /// Reported and ignored when nothing is loading.
  public func update(message: String?, fileID: String = #fileID, line: Int = #line) {
    let visible = change { state -> Bool? in
      guard state.depth > 0 else { return nil }
      state.message = message
      return state.phase.isVisible
    }
    switch visible {
    case nil:
      Diagnostics.report(
        subsystem: "loading", message: "update(message:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
    case true?:
      channel.send(IndicatorUpdate(message: .some(message)))
    case false?:
      break
    }
  }

  /// Shows how far the work is: a fraction in `0...1`, or `nil` for indeterminate progress
  /// (the default for each new piece of work). A visible indicator shows it at once, a pending
  /// one when it appears.
  ///
  /// ```swift
  /// for (index, file) in files.enumerated() {
  ///   try await upload(file)
  ///   loading.update(progress: Double(index + 1) / Double(files.count))
  /// }
  /// ```
  ///
  /// A fraction outside `0...1` is clamped; a non-finite one is reported through `Diagnostics`
  /// and ignored, as is any update with nothing loading.
  public func update(progress fraction: Double?, fileID: String = #fileID, line: Int = #line) {
    if let fraction, !fraction.isFinite {
      Diagnostics.report(
        subsystem: "loading", message: "A progress of \(fraction) is not finite; ignored.",
        fileID: fileID, line: line)
      return
    }
    let clamped = fraction.map { min(max($0, 0), 1) }
    let visible = change { state -> Bool? in
      guard state.depth > 0 else { return nil }
      guard state.progress != clamped else { return false }
      state.progress = clamped
      return state.phase.isVisible
    }
    switch visible {
    case nil:
      Diagnostics.report(
        subsystem: "loading",
        message: "update(progress:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
    case true?:
      channel.send(IndicatorUpdate(progress: .some(clamped)))
    case false?:
      break
    }
  }

  /// Shows the progress of a Foundation `Progress` for the rest of the work in progress,
  /// reading it at every tick while the indicator is visible (the controller ticks while it
  /// follows a `Progress`, even for an indicator that wants no ticks).
  ///
  /// Foundation on Linux offers no key-value observing of `Progress`, so the controller reads
  /// it rather than observing it: at most one update per ``LoadingOptions/tickInterval``, and
  /// none when the fraction did not change.
  ///
  /// ```swift
  /// let progress = Progress(totalUnitCount: Int64(files.count))
  /// loading.start(message: "Uploading")
  /// loading.follow(progress)
  /// for file in files {
  ///   try await upload(file)
  ///   progress.completedUnitCount += 1
  /// }
  /// loading.stop()
  /// ```
  public func follow(_ progress: Progress, fileID: String = #fileID, line: Int = #line) {
    let startTicks = locked.withLock { state -> UInt64?? in
      guard state.depth > 0 else { return nil }
      state.followed = UncheckedProgress(progress)
      return state.phase.isVisible && state.tickToken == nil ? .some(state.session) : .some(nil)
    }
    guard let startTicks else {
      Diagnostics.report(
        subsystem: "loading", message: "follow(_:) was called with nothing loading; ignored.",
        fileID: fileID,
        line: line)
      return
    }
    update(progress: Self.fraction(of: progress), fileID: fileID, line: line)
    if let session = startTicks { startTicking(session: session) }
  }

  static func fraction(of progress: Progress) -> Double? {
    progress.isIndeterminate ? nil : progress.fractionCompleted
  }

  /// Waits until nothing is loading and the indicator has drawn its last call (a command-line
  /// tool must not exit before the spinner's final line): returns at once when idle, and when
  /// the waiting task is cancelled.
  ///
  /// ```swift
  /// loading.stop()
  /// await loading.settled()  // "✔ Resolving" is on the terminal
  /// ```
  public nonisolated(nonsending) func settled() async {
    await waiters.wait(ifCancelled: ()) { locked.withLock { $0.isIdle } ? () : nil }
    // The indicator's last calls may still wait on its isolation.
    await channel.delivered()
  }

  /// Ends a piece of loading work.
  ///
  /// The stop that balances the first start ends the loading: if the indicator has not
  /// appeared yet, it never will; if it has, it disappears once it has been visible for the
  /// minimum show time, showing `outcome`. A failure reported by any nested stop makes the
  /// final outcome a failure. A stop without a matching start is reported through
  /// `Diagnostics` and ignored.
  public func stop(
    _ outcome: LoadingOutcome = .success, fileID: String = #fileID, line: Int = #line
  ) {
    let now = clock.now
    let result = change { state -> StopResult in
      guard state.depth > 0 else { return .unbalanced }
      state.depth -= 1
      if outcome != .success { state.outcome = outcome }
      guard state.depth == 0 else { return .nested }
      switch state.phase {
      case .pending:
        state.phase = .idle
        return .cancelAppearance(state.advanceStep(), resumesWaiters: state.isIdle)
      case .visible(let since):
        let until = max(since + options.minimumShowTime, now)
        state.phase = .finishing(since: since, until: until)
        let stale = state.advanceStep()
        return .hide(stale: stale, step: state.step, after: until - now)
      case .idle, .finishing:
        // Unreachable: work in progress is always pending or visible.
        state.phase = .idle
        return .nested
      }
    }
    switch result {
    case .unbalanced:
      Diagnostics.report(
        subsystem: "loading",
        message: "stop was called more often than start; the extra stop is ignored.",
        fileID: fileID,
        line: line)
    case .nested:
      break
    case .cancelAppearance(let token, let resumesWaiters):
      token?.cancel()
      if resumesWaiters { waiters.resumeAll(returning: ()) }
    case .hide(let stale, let step, let delay):
      stale?.cancel()
      schedule(.hide, step: step, after: delay)
    }
  }

  /// Stops everything at once, whatever the ending: cancels the pending appearance, the ticks
  /// and the hiding, and resets the nesting. A visible indicator is told to disappear with
  /// ``LoadingOutcome/cancelled``, on the clock's context. Idempotent.
  public func didEnd(_ ending: CapabilityEnding) {
    let (tokens, wasVisible) = change { state in
      let reset = state.reset()
      if reset.wasVisible { state.isDrawingLastCall = true }
      return reset
    }
    for token in tokens { token.cancel() }
    guard wasVisible else { return resumeWaitersIfIdle() }
    clock.schedule(after: .zero) { [channel, locked, waiters] in
      channel.call { indicator in
        indicator.disappear(outcome: .cancelled)
        Self.lastCallDrawn(locked, waiters)
      }
    }.detach()
  }

  // The host died and its values were released: a visible indicator must not stay on screen.
  deinit {
    // Usually `didEnd` has stopped everything already (the host's death ends the controller
    // just before releasing it), and the indicator's last call may be on its way: the waiters
    // are then resumed when it has run, not here.
    let (tokens, wasVisible, isDrawingLastCall) = locked.withLock { state in
      let reset = state.reset()
      if reset.wasVisible { state.isDrawingLastCall = true }
      return (reset.tokens, reset.wasVisible, state.isDrawingLastCall)
    }
    for token in tokens { token.cancel() }
    if isDrawingLastCall, !wasVisible { return }
    if wasVisible {
      clock.schedule(after: .zero) { [channel, locked, waiters] in
        channel.call { indicator in
          indicator.disappear(outcome: .cancelled)
          Self.lastCallDrawn(locked, waiters)
        }
      }.detach()
    } else {
      Self.lastCallDrawn(locked, waiters)
    }
  }

  /// Resumes the waiters of `settled()` once the indicator's last call has run.
  private static func lastCallDrawn(_ locked: LockedState<State>, _ waiters: Waiters<Void>) {
    let idle = locked.withLock { state -> Bool in
      state.isDrawingLastCall = false
      return state.isIdle
    }
    if idle { waiters.resumeAll(returning: ()) }
  }

  private func resumeWaitersIfIdle() {
    if locked.withLock({ $0.isIdle }) { waiters.resumeAll(returning: ()) }
  }

  /// How many `settled()` calls are waiting, so that tests can wait for one to register.
  package var waiterCount: Int { waiters.count }

  private var isHostAlive: Bool {
    // Checked outside the lock: the strong reference it takes for a moment may be the last.
    host.map { $0.object != nil } ?? true
  }

  private func schedule(_ step: Step, step id: UInt64, after delay: Duration) {
    let token = clock.schedule(after: delay) { [weak self] in
      switch step {
      case .appear: self?.appear(step: id)
      case .hide: self?.hide(step: id)
      }
    }
    let unwanted = locked.withLock { state -> CancellationToken? in
      guard state.step == id else { return token }
      state.stepToken = token
      return nil
    }
    unwanted?.cancel()
  }

  private func appear(step: UInt64) {
    guard isHostAlive else { return shutDown() }
    let now = clock.now
    let shown = change {
      state -> (message: String?, progress: Double?, session: UInt64, ticks: Bool)? in
      guard state.step == step, case .pending = state.phase else { return nil }
      state.phase = .visible(since: now)
      state.session += 1
      state.frame = 0
      let ticks = channel.wantsTicks || state.followed != nil
      return (state.message, state.progress, state.session, ticks)
    }
    guard let shown else { return }
    channel.call { indicator in
      indicator.appear(message: shown.message)
      if let progress = shown.progress { indicator.update(progress: progress) }
    }
    // An indicator that wants no ticks and follows no `Progress` costs no timer.
    if shown.ticks { startTicking(session: shown.session) }
  }

  private func startTicking(session: UInt64) {
    let ticks = try? clock.scheduleRepeating(every: options.tickInterval) { [weak self] in
      self?.tick(session: session)
    }
    let unwanted = locked.withLock { state -> CancellationToken? in
      guard state.session == session, state.phase.isVisible, state.tickToken == nil else {
        return ticks
      }
      state.tickToken = ticks
      return nil
    }
    unwanted?.cancel()
  }

  private func tick(session: UInt64) {
    guard isHostAlive else { return shutDown() }
    let ticked = locked.withLock { state -> (frame: Int, followed: UncheckedProgress?)? in
      guard state.session == session, state.phase.isVisible else { return nil }
      state.frame += 1
      return (state.frame, state.followed)
    }
    guard let (frame, followed) = ticked else { return }
    if let followed { update(progress: Self.fraction(of: followed.progress)) }
    guard channel.wantsTicks else { return }
    let turn = 2 * Double.pi
    // The step taken within one turn first: a huge finite angle per tick times the frame
    // would overflow to infinity, whose remainder is NaN.
    let step = options.anglePerTick.truncatingRemainder(dividingBy: turn)
    var angle = (Double(frame) * step).truncatingRemainder(dividingBy: turn)
    if angle < 0 { angle += turn }
    let turned = angle
    channel.send(IndicatorUpdate(tick: (frame, turned)))
  }

  private func hide(step: UInt64) {
    guard isHostAlive else { return shutDown() }
    let ending = change { state -> (LoadingOutcome, [CancellationToken])? in
      guard state.step == step, case .finishing = state.phase else { return nil }
      let outcome = state.outcome
      state.isDrawingLastCall = true
      return (outcome, state.reset().tokens)
    }
    guard let (outcome, tokens) = ending else { return }
    for token in tokens { token.cancel() }
    channel.call { [locked, waiters] indicator in
      indicator.disappear(outcome: outcome)
      Self.lastCallDrawn(locked, waiters)
    }
  }

  /// The host died: stop all work, and take a visible indicator away, as a detach does.
  private func shutDown() {
    didEnd(.hostDied)
  }

  /// Changes the state with `body`, a pure transition, telling Observation of the public
  /// properties it changes, before the change and outside the lock, as Observation asks.
  ///
  /// Until anything has read, one locked run. After: `body` first runs on a copy; if it changes
  /// no public property it is kept, in the same locked section. Otherwise the controller tells
  /// Observation of the properties it changes, then runs `body` again on the state as it is
  /// then (another thread may have changed it in between: Observation was told of what the
  /// first run changes, and what only the second run changes is announced after it).
  private func change<Result: Sendable>(_ body: (inout sending State) -> Result) -> Result {
    guard observation.hasBeenRead else { return locked.withLock(body) }
    let (kept, changes) = locked.withLock { state -> (Result?, [PublicProperty]) in
      var changed = state
      let result = body(&changed)
      let changes = PublicProperty.changes(from: state, to: changed)
      guard changes.isEmpty else { return (nil, changes) }
      state = changed
      return (result, [])
    }
    if let kept { return kept }
    for property in changes { property.willSet(of: self) }
    let (result, unannounced) = locked.withLock { state -> (Result, [PublicProperty]) in
      let before = state
      let result = body(&state)
      return (
        result, PublicProperty.changes(from: before, to: state).filter { !changes.contains($0) }
      )
    }
    for property in changes { property.didSet(of: self) }
    for property in unannounced {
      property.willSet(of: self)
      property.didSet(of: self)
    }
    return result
  }

  /// A public property that Observation tracks, and the key path it is tracked under.
  private enum PublicProperty: Int, CaseIterable {
    case state, nestingDepth, message, progress, outcome

    /// What each property is read from and named by: the one place that pairs them.
    private static let fields: [Field] = allCases.map { property in
      switch property {
      case .state: Field(\.state, \.phase)
      case .nestingDepth: Field(\.nestingDepth, \.depth)
      case .message: Field(\.message, \.message)
      case .progress: Field(\.progress, \.progress)
      case .outcome: Field(\.outcome, \.outcome)
      }
    }

    static func changes(from old: State, to new: State) -> [PublicProperty] {
      allCases.filter { fields[$0.rawValue].differs(old, new) }
    }

    func willSet(of controller: LoadingController) {
      Self.fields[rawValue].willSet(controller)
    }

    func didSet(of controller: LoadingController) {
      Self.fields[rawValue].didSet(controller)
    }

    /// A public property's key path with the state it reads, and the registrar's calls for it.
    private struct Field: Sendable {
      let differs: @Sendable (State, State) -> Bool
      let willSet: @Sendable (LoadingController) -> Void
      let didSet: @Sendable (LoadingController) -> Void

      init<Member: Sendable, Value: Equatable & Sendable>(
        _ property: any KeyPath<LoadingController, Member> & Sendable,
        _ stored: any KeyPath<State, Value> & Sendable
      ) {
        differs = { $0[keyPath: stored] != $1[keyPath: stored] }
        willSet = { $0.observation.willSet($0, keyPath: property) }
        didSet = { $0.observation.didSet($0, keyPath: property) }
      }
    }
  }
}

extension LoadingController {
  private enum Step {
    case appear
    case hide
  }

  private enum StopResult {
    case unbalanced
    case nested
    case cancelAppearance(CancellationToken?, resumesWaiters: Bool)
    case hide(stale: CancellationToken?, step: UInt64, after: Duration)
  }

  private struct State {
    var phase = LoadingState.idle
    /// Whether the indicator's disappearance is on its way to it.
    var isDrawingLastCall = false
    var depth = 0
    var message: String?
    var outcome = LoadingOutcome.success
    /// The fraction done, `nil` while indeterminate.
    var progress: Double?
    /// The Foundation `Progress` read at each tick, if the work handed one over.
    var followed: UncheckedProgress?
    // Identifies the one appearance or hiding that may run; bumping it disowns the old one.
    var step: UInt64 = 0
    var stepToken: CancellationToken?
    // Identifies one visible period, so that ticks of an earlier one do nothing.
    var session: UInt64 = 0
    var tickToken: CancellationToken?
    var frame = 0

    /// Disowns the scheduled appearance or hiding, returning its token to cancel after
    /// unlocking.
    mutating func advanceStep() -> CancellationToken? {
      step += 1
      defer { stepToken = nil }
      return stepToken
    }

    /// Whether nothing is loading or being drawn any more: when `settled()` returns.
    var isIdle: Bool { phase == .idle && !isDrawingLastCall }

    /// Back to idle with nothing scheduled; returns the tokens to cancel after unlocking, and
    /// whether the indicator was visible.
    mutating func reset() -> (tokens: [CancellationToken], wasVisible: Bool) {
      let wasVisible = phase.isVisible
      let tokens = [advanceStep(), tickToken].compactMap { $0 }
      tickToken = nil
      session += 1
      phase = .idle
      depth = 0
      message = nil
      progress = nil
      followed = nil
      return (tokens, wasVisible)
    }
  }
}

/// A controller's indicator with the isolation it is called in.
///
/// An indicator that lives on an actor (a main-actor view's) is kept in an `IsolationBound`
/// and reached only by calls that run there; a `Sendable` one, of a controller with no host,
/// is called on the clock's context.
private final class IndicatorChannel: Sendable {
  /// Read once, in the isolation the indicator lives in.
  let wantsTicks: Bool

  /// One callback for every call, so that the indicator receives them in the order they were
  /// made.
  private let calls: IsolatedCallback<IndicatorCall>

  /// The channel of `indicator`, which lives in the caller's isolation.
  init(indicator: any LoadingIndicator, isolation: isolated (any Actor)) {
    wantsTicks = indicator.wantsTicks
    let bound = IsolationBound(indicator)
    calls = IsolatedCallback(on: isolation) { isolation, call in
      // Read out of the bound first: `appear` and `disappear` may call back into the
      // controller, and no access to the indicator is held while they run.
      if let indicator = bound.value(isolation: isolation) { call.body(indicator) }
    }
  }

  /// The channel of a `Sendable` indicator, called wherever the controller calls it.
  init(sendable indicator: any LoadingIndicator & Sendable) {
    wantsTicks = indicator.wantsTicks
    calls = IsolatedCallback(on: nil) { call in call.body(indicator) }
  }

  /// Hands the indicator a call that changes what it shows (appearing, disappearing), in order
  /// with the others.
  func call(_ body: @escaping @Sendable (any LoadingIndicator) -> Void) {
    pending.withLock { $0.made &+= 1 }
    calls(IndicatorCall(body: body))
  }

  /// The update calls on their way, by number, with what each will hand over; and how many
  /// calls were made, so that an update can tell whether the last call made is one of them.
  private let pending = LockedState(Pending())

  private struct Pending {
    var made: UInt64 = 0
    var updates: [UInt64: IndicatorUpdate] = [:]
  }

  /// Hands the indicator `update`, in order with the other calls. While the last call made is
  /// an update still on its way (its isolation busy), `update` joins it, the newest message,
  /// progress and tick of each winning, rather than queue behind it: an indicator kept busy is
  /// handed one update when it is free, however many it missed, and never one that overtakes
  /// a call made after it. Update calls waiting at once are at most one more than the other
  /// calls waiting.
  func send(_ update: IndicatorUpdate) {
    let number = pending.withLock { pending -> UInt64? in
      if pending.updates[pending.made] != nil {
        pending.updates[pending.made]?.merge(update)
        return nil
      }
      pending.made &+= 1
      pending.updates[pending.made] = update
      return pending.made
    }
    guard let number else { return }
    calls(
      IndicatorCall { [pending] indicator in
        pending.withLock { $0.updates.removeValue(forKey: number) }?.deliver(to: indicator)
      })
  }

  /// How many calls wait for the indicator's isolation now, and the most that ever did.
  var backlog: Backlog { calls.backlog }

  /// Returns once the calls made so far have run.
  func delivered() async {
    await calls.delivered()
  }
}

/// What one update call hands an indicator: for each kind, nothing or its newest value.
struct IndicatorUpdate: Sendable {
  /// A message to show (`.some(nil)`: none).
  var message: String?? = nil
  /// A fraction to show (`.some(nil)`: indeterminate).
  var progress: Double?? = nil
  var tick: (frame: Int, angle: Double)? = nil

  /// Takes `newer`'s values over these, kind by kind.
  mutating func merge(_ newer: IndicatorUpdate) {
    if let message = newer.message { self.message = message }
    if let progress = newer.progress { self.progress = progress }
    if let tick = newer.tick { self.tick = tick }
  }

  /// Calls the indicator for each kind it carries: the message, the progress, then the tick.
  func deliver(to indicator: any LoadingIndicator) {
    if let message { indicator.update(message: message) }
    if let progress { indicator.update(progress: progress) }
    if let tick { indicator.tick(frame: tick.frame, angle: tick.angle) }
  }
}

/// One call of the indicator, carried to its isolation, where ``IndicatorChannel`` hands it the
/// indicator.
private struct IndicatorCall: Sendable {
  let body: @Sendable (any LoadingIndicator) -> Void
}

/// A Foundation `Progress`, which is thread-safe (it locks its own state) but is not declared
/// `Sendable` by every Foundation: read only through `fractionCompleted` and
/// `isIndeterminate`.
struct UncheckedProgress: @unchecked Sendable {
  let progress: Progress

  init(_ progress: Progress) {
    self.progress = progress
  }
}
