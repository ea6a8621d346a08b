import Affix
import AffixScheduling

/// The state of a ``LoadingController`` and its transitions: a pure value with no lock, no
/// clock and no indicator.
///
/// Each transition takes an event (a call, the time it happened, the timing rules it needs) and
/// returns what the controller must do after unlocking: tokens to cancel, an appearance or a
/// hiding to schedule, an indicator call to make.
struct LoadingStateMachine {
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

  /// Whether nothing is loading or being drawn any more: when `settled()` returns.
  var isIdle: Bool { phase == .idle && !isDrawingLastCall }

  /// What the controller does after a start.
  struct StartAction: Sendable, Equatable {
    /// The scheduled appearance or hiding disowned, to cancel.
    var cancel: CancellationToken?
    /// The step of the appearance to schedule after the grace time, if any.
    var scheduleAppearance: UInt64?
    /// A message to send a visible indicator (`.some(nil)`: none).
    var sendMessage: String??
    /// Whether to send a visible indicator indeterminate progress.
    var clearsProgress = false
  }

  /// What the controller does after an update of the message or the progress.
  enum UpdateAction: Sendable, Equatable {
    /// Nothing is loading: report the misuse.
    case ignored
    /// Send the new value to the visible indicator.
    case send
    /// Nothing to send: the indicator is not visible, or the value did not change.
    case none
  }

  /// What the controller does after `follow(_:)`.
  enum FollowAction: Sendable, Equatable {
    /// Nothing is loading: report the misuse.
    case ignored
    /// Read the progress now, and start ticking in `session` if given.
    case followed(startTicking: UInt64?)
  }

  /// What the controller does after a stop.
  enum StopAction: Sendable, Equatable {
    /// A stop without a start: report the misuse.
    case unbalanced
    /// Nothing to do: work is still in progress.
    case nested
    /// Cancel the appearance, and resume the waiters of `settled()` if asked.
    case cancelAppearance(CancellationToken?, resumesWaiters: Bool)
    /// Cancel `stale`, and schedule the hiding `step` after `after`.
    case hide(stale: CancellationToken?, step: UInt64, after: Duration)
  }

  /// What the controller does when everything stops at once.
  struct EndAction: Sendable, Equatable {
    /// The tokens to cancel.
    var tokens: [CancellationToken]
    /// Whether the indicator was visible, and must be told to disappear.
    var wasVisible: Bool
    /// Whether the indicator's last call is on its way.
    var isDrawingLastCall: Bool
  }

  /// What the controller shows when the indicator appears.
  struct AppearAction: Sendable, Equatable {
    var message: String?
    var progress: Double?
    /// The visible period that begins.
    var session: UInt64
    /// Whether to start ticking.
    var ticks: Bool
  }

  /// What one tick draws.
  struct TickAction: Sendable, Equatable {
    var frame: Int
    /// The `Progress` to read, if the work follows one.
    var followed: UncheckedProgress?
  }

  /// What the controller does when the indicator hides.
  struct HideAction: Sendable, Equatable {
    /// The outcome the indicator disappears with.
    var outcome: LoadingOutcome
    /// The tokens to cancel.
    var tokens: [CancellationToken]
  }

  /// A start at `now`: the first schedules the appearance, one while finishing starts new work.
  mutating func start(message: String?, now: SchedulingInstant, graceTime: Duration)
    -> StartAction
  {
    depth += 1
    switch phase {
    case .idle:
      self.message = message
      outcome = .success
      progress = nil
      followed = nil
      let cancelled = advanceStep()
      phase = .pending(appearsAt: now + graceTime)
      return StartAction(cancel: cancelled, scheduleAppearance: step)
    case .pending, .visible:
      return StartAction()
    case .finishing(let since, _):
      // New work, not the old one resumed: its outcome, its message, and no progress yet.
      phase = .visible(since: since)
      outcome = .success
      let changed = self.message != message
      self.message = message
      let hadProgress = progress != nil
      progress = nil
      followed = nil
      return StartAction(
        cancel: advanceStep(), sendMessage: changed ? .some(message) : nil,
        clearsProgress: hadProgress)
    }
  }

  /// A new message for the work in progress.
  mutating func update(message: String?) -> UpdateAction {
    guard depth > 0 else { return .ignored }
    self.message = message
    return phase.isVisible ? .send : .none
  }

  /// A new fraction, already clamped, for the work in progress.
  mutating func update(progress fraction: Double?) -> UpdateAction {
    guard depth > 0 else { return .ignored }
    guard progress != fraction else { return .none }
    progress = fraction
    return phase.isVisible ? .send : .none
  }

  /// A `Progress` to follow for the rest of the work in progress.
  mutating func follow(_ progress: UncheckedProgress) -> FollowAction {
    guard depth > 0 else { return .ignored }
    followed = progress
    return .followed(startTicking: phase.isVisible && tickToken == nil ? session : nil)
  }

  /// A stop at `now` with `outcome`: the last one cancels the appearance or schedules the hiding.
  mutating func stop(
    _ outcome: LoadingOutcome, now: SchedulingInstant, minimumShowTime: Duration
  ) -> StopAction {
    guard depth > 0 else { return .unbalanced }
    depth -= 1
    if outcome != .success { self.outcome = outcome }
    guard depth == 0 else { return .nested }
    switch phase {
    case .pending:
      phase = .idle
      return .cancelAppearance(advanceStep(), resumesWaiters: isIdle)
    case .visible(let since):
      let until = max(since + minimumShowTime, now)
      phase = .finishing(since: since, until: until)
      let stale = advanceStep()
      return .hide(stale: stale, step: step, after: until - now)
    case .idle, .finishing:
      // Unreachable: work in progress is always pending or visible.
      phase = .idle
      return .nested
    }
  }

  /// Everything stops at once: back to idle; a visible indicator's last call is on its way.
  mutating func end() -> EndAction {
    let reset = reset()
    if reset.wasVisible { isDrawingLastCall = true }
    return EndAction(
      tokens: reset.tokens, wasVisible: reset.wasVisible, isDrawingLastCall: isDrawingLastCall)
  }

  /// The appearance or hiding `id` was scheduled with `token`: returns the token to cancel if
  /// that step was disowned meanwhile.
  mutating func scheduled(_ token: CancellationToken, step id: UInt64) -> CancellationToken? {
    guard step == id else { return token }
    stepToken = token
    return nil
  }

  /// The appearance `id` is due at `now`: nothing unless it is still the one pending.
  mutating func appear(step id: UInt64, now: SchedulingInstant, wantsTicks: Bool)
    -> AppearAction?
  {
    guard step == id, case .pending = phase else { return nil }
    phase = .visible(since: now)
    session += 1
    frame = 0
    return AppearAction(
      message: message, progress: progress, session: session,
      ticks: wantsTicks || followed != nil)
  }

  /// Ticks of `session` were scheduled with `token` (`nil`: the clock could not): returns the
  /// token to cancel if that visible period is over or already ticks.
  mutating func ticking(_ token: CancellationToken?, session id: UInt64) -> CancellationToken? {
    guard session == id, phase.isVisible, tickToken == nil else { return token }
    tickToken = token
    return nil
  }

  /// A tick of `session`: the next frame, unless that visible period is over.
  mutating func tick(session id: UInt64) -> TickAction? {
    guard session == id, phase.isVisible else { return nil }
    frame += 1
    return TickAction(frame: frame, followed: followed)
  }

  /// The hiding `id` is due: nothing unless it is still the one finishing.
  mutating func hide(step id: UInt64) -> HideAction? {
    guard step == id, case .finishing = phase else { return nil }
    let outcome = self.outcome
    isDrawingLastCall = true
    return HideAction(outcome: outcome, tokens: reset().tokens)
  }

  /// The indicator's last call has run: returns whether the waiters of `settled()` resume.
  mutating func lastCallDrawn() -> Bool {
    isDrawingLastCall = false
    return isIdle
  }

  /// Disowns the scheduled appearance or hiding, returning its token to cancel after
  /// unlocking.
  mutating func advanceStep() -> CancellationToken? {
    step += 1
    defer { stepToken = nil }
    return stepToken
  }

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
