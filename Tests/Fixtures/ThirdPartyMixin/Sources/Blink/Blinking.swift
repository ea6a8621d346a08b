public import Affix
public import AffixScheduling
public import Observation

/// An object that blinks: its `isVisible` toggles on a schedule, a given number of times.
///
/// ```swift
/// final class Cursor: Blinking {
///   var isVisible = true
/// }
///
/// cursor.blink(times: 3, every: .milliseconds(500))
/// await cursor.blinkFinished()
/// ```
public protocol Blinking: AnyObject {
  /// Whether the object shows; the mixin toggles it, in the isolation `blink` was called from.
  var isVisible: Bool { get set }

  /// The scheduler that times the blinks: the main queue's by default.
  var blinkClock: any SchedulingClock { get }
}

extension Blinking {
  /// The main queue's scheduler.
  public var blinkClock: any SchedulingClock { DispatchClock.main }

  /// Hides and shows the object `times` times, one toggle every `interval`; a blink in
  /// progress is replaced. A count or interval that is not positive is reported and ignored.
  public func blink(
    times: Int, every interval: Duration, isolation: isolated (any Actor) = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) {
    guard times > 0, interval > .zero else {
      return Diagnostics.report(
        subsystem: "blink",
        message: "blink(times: \(times), every: \(interval)) needs positive values; ignored.",
        fileID: fileID, line: line)
    }
    let blinker = Associations(of: self).capability(Blinker.self) { Blinker() }
    let toggle = IsolatedCallback<Blinker.Toggle>(isolation: isolation) {
      [weak self, weak blinker] toggle in
      guard let visible = blinker?.visibility(after: toggle) else { return }
      self?.isVisible = visible
    }
    blinker.start(toggles: times * 2, every: interval, on: blinkClock, toggle: toggle)
  }

  /// Stops blinking and shows the object.
  public func stopBlinking() {
    Associations(of: self).capability(Blinker.self)?.stop()
  }

  /// Waits until the blinking ends and its last toggle has been written; at once if it is not
  /// blinking.
  public nonisolated(nonsending) func blinkFinished() async {
    await Associations(of: self).capability(Blinker.self)?.finished()
  }
}

/// The blinking state of one host, attached to it as a capability; Swift Observation tracks
/// ``togglesLeft``.
public final class Blinker: Capability, Observable {
  let run = ScheduledRun()
  private let state = LockedState((remaining: 0, toggle: IsolatedCallback<Toggle>?.none))
  private let observation = LazyObservationRegistrar()

  /// The toggles left in the blink in progress: 0 when it is not blinking.
  public var togglesLeft: Int {
    observation.access(self, keyPath: \.togglesLeft)
    return state.withLock { $0.remaining }
  }

  /// Changes the toggles left, telling Observation first, outside the lock.
  private func changeTogglesLeft<Result: Sendable>(
    _ body: (inout sending (remaining: Int, toggle: IsolatedCallback<Toggle>?)) -> Result
  ) -> Result {
    observation.withMutation(of: self, keyPath: \.togglesLeft) { state.withLock(body) }
  }

  /// A toggle the clock asks for, decided where it runs: on the host's isolation, after the
  /// toggles asked for before it, so that a stop made meanwhile wins over a tick.
  enum Toggle: Sendable {
    /// The run's next toggle.
    case step(ScheduledRun.ID)
    /// The stop's: show the host.
    case show
  }

  func start(
    toggles: Int, every interval: Duration, on scheduler: any SchedulingClock,
    toggle: IsolatedCallback<Toggle>
  ) {
    changeTogglesLeft { $0 = (toggles, toggle) }
    run.start { id in
      try? scheduler.scheduleRepeating(every: interval) { [weak self] in
        self?.step(id)
      }
    }
  }

  /// Waits for the run to end, then for the toggles it queued on the host's isolation.
  nonisolated(nonsending) func finished() async {
    await run.finished()
    await state.withLock { $0.toggle }?.delivered()
  }

  func stop() {
    run.cancel()
    changeTogglesLeft { $0.remaining = 0 }
    show()
  }

  private func step(_ id: ScheduledRun.ID) {
    guard run.isCurrent(id) else { return }
    state.withLock { $0.toggle }?(.step(id))
  }

  private func show() {
    state.withLock { $0.toggle }?(.show)
  }

  /// What `toggle` writes to the host as it runs there; nil for nothing: a tick of a run that
  /// was stopped or replaced since.
  func visibility(after toggle: Toggle) -> Bool? {
    guard case .step(let id) = toggle else { return true }
    let remaining = changeTogglesLeft { state -> Int? in
      guard state.remaining > 0, run.isCurrent(id) else { return nil }
      state.remaining -= 1
      return state.remaining
    }
    guard let remaining else { return nil }
    if remaining == 0 { run.finish(id) }
    return remaining % 2 == 0
  }

  /// Stops blinking; a live host is left visible.
  public func didEnd(_ ending: CapabilityEnding) {
    run.shutDown()
    if ending != .hostDied { show() }
  }

  deinit { run.shutDown() }
}
