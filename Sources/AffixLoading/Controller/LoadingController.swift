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
  /// The state machine under its lock, and the tasks waiting in `settled()`.
  let storage = LoadingStorage()
  /// Tells Observation of changes of the public state, once anything has read it.
  let observation = LazyObservationRegistrar()
  /// Carries the calls to the indicator, in the isolation it lives in.
  let channel: IndicatorChannel

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
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) {
    self.host = host.map { AnyWeakReference($0) }
    if CallerIsolation.required(
      isolation, by: "LoadingController(indicator:)", subsystem: "loading", fileID: fileID,
      line: line) != nil
    {
      self.channel = IndicatorChannel(indicator: indicator, isolation: isolation)
    } else {
      self.channel = IndicatorChannel(refusing: indicator)
    }
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
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
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
    return storage.withLock { $0.phase }
  }

  /// The number of starts not yet balanced by a stop.
  public var nestingDepth: Int {
    observation.access(self, keyPath: \.nestingDepth)
    return storage.withLock { $0.depth }
  }

  /// Whether work is in progress: some start is not yet balanced by a stop.
  public var isLoading: Bool {
    nestingDepth > 0
  }

  /// The message of the work in progress, `nil` when it has none or nothing is loading.
  public var message: String? {
    observation.access(self, keyPath: \.message)
    return storage.withLock { $0.message }
  }

  /// How far the work in progress is, in `0...1`; `nil` while indeterminate or idle.
  public var progress: Double? {
    observation.access(self, keyPath: \.progress)
    return storage.withLock { $0.progress }
  }

  /// The outcome the indicator will show when the work ends: ``LoadingOutcome/success``
  /// unless a stop reported another, until the next piece of work starts.
  public var outcome: LoadingOutcome {
    observation.access(self, keyPath: \.outcome)
    return storage.withLock { $0.outcome }
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
    let action = storage.change(of: self) {
      $0.start(message: message, now: now, graceTime: options.graceTime)
    }
    action.cancel?.cancel()
    if let newMessage = action.sendMessage {
      channel.send(IndicatorUpdate(message: .some(newMessage)))
    }
    if action.clearsProgress { channel.send(IndicatorUpdate(progress: .some(nil))) }
    if let appear = action.scheduleAppearance {
      schedule(.appear, step: appear, after: options.graceTime)
    }
  }

  /// Changes the message of the work in progress; a visible indicator shows it at once.
  /// Reported and ignored when nothing is loading.
  public func update(message: String?, fileID: String = #fileID, line: Int = #line) {
    switch storage.change(of: self, { $0.update(message: message) }) {
    case .ignored:
      Diagnostics.report(
        subsystem: "loading", message: "update(message:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
    case .send:
      channel.send(IndicatorUpdate(message: .some(message)))
    case .none:
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
    switch storage.change(of: self, { $0.update(progress: clamped) }) {
    case .ignored:
      Diagnostics.report(
        subsystem: "loading",
        message: "update(progress:) was called with nothing loading; ignored.",
        fileID: fileID, line: line)
    case .send:
      channel.send(IndicatorUpdate(progress: .some(clamped)))
    case .none:
      break
    }
  }

  /// Shows the progress of a Foundation `Progress` for the rest of the work in progress.
  ///
  /// The controller reads it at every tick while the indicator is visible, and ticks while it
  /// follows a `Progress`, even for an indicator that wants no ticks.
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
    let unchecked = UncheckedProgress(progress)
    guard case .followed(let startTicks) = storage.withLock({ $0.follow(unchecked) }) else {
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

  /// Waits until nothing is loading and the indicator has drawn its last call.
  ///
  /// A command-line tool must not exit before the spinner's final line. This returns at once
  /// when idle, and when the waiting task is cancelled.
  ///
  /// ```swift
  /// loading.stop()
  /// await loading.settled()  // "✔ Resolving" is on the terminal
  /// ```
  public nonisolated(nonsending) func settled() async {
    await storage.waiters.wait(ifCancelled: ()) { storage.isIdle ? () : nil }
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
    let result = storage.change(of: self) {
      $0.stop(outcome, now: now, minimumShowTime: options.minimumShowTime)
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
      if resumesWaiters { storage.waiters.resumeAll(returning: ()) }
    case .hide(let stale, let step, let delay):
      stale?.cancel()
      schedule(.hide, step: step, after: delay)
    }
  }

  /// Stops everything at once, whatever the ending: cancels the pending appearance, the ticks
  /// and the hiding, and resets the nesting. A visible indicator is told to disappear with
  /// ``LoadingOutcome/cancelled``, on the clock's context. Idempotent.
  public func didEnd(_ ending: CapabilityEnding) {
    let ended = storage.change(of: self) { $0.end() }
    for token in ended.tokens { token.cancel() }
    guard ended.wasVisible else { return storage.resumeWaitersIfIdle() }
    disappearCancelled()
  }

  // The host died and its values were released: a visible indicator must not stay on screen.
  deinit {
    // Usually `didEnd` has stopped everything already (the host's death ends the controller
    // just before releasing it), and the indicator's last call may be on its way: the waiters
    // are then resumed when it has run, not here.
    let ended = storage.withLock { $0.end() }
    for token in ended.tokens { token.cancel() }
    if ended.isDrawingLastCall, !ended.wasVisible { return }
    if ended.wasVisible {
      disappearCancelled()
    } else {
      storage.lastCallDrawn()
    }
  }

  /// Tells a visible indicator, on the clock's context, to disappear with
  /// ``LoadingOutcome/cancelled``.
  private func disappearCancelled() {
    clock.schedule(after: .zero) { [channel, storage] in
      channel.call { indicator in
        indicator.disappear(outcome: .cancelled)
        storage.lastCallDrawn()
      }
    }.detach()
  }

  /// How many `settled()` calls are waiting, so that tests can wait for one to register.
  package var waiterCount: Int { storage.waiters.count }

  var isHostAlive: Bool {
    // Checked outside the lock: the strong reference it takes for a moment may be the last.
    host.map { $0.object != nil } ?? true
  }
}
