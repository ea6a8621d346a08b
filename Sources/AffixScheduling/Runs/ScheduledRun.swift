public import Affix

/// A capability's scheduled work, one run at a time.
///
/// It starts, restarts and cancels runs, waits for the end of one, and shuts down the same way
/// when the capability ends and when it deinitializes.
///
/// A run starts with ``start(_:)``, which calls your `schedule` closure outside every lock
/// and keeps the `CancellationToken` it returns for as long as the run is current. Starting
/// again ends the current run first (a restart); ``cancel()`` ends it; your scheduled work
/// ends it with ``finish(_:)`` when it is done, naming the run it belongs to, so that work
/// left over from a run that was restarted meanwhile changes nothing. ``finished()`` waits
/// for the current run to end. ``shutDown()`` cancels and refuses later starts: call it from
/// `Capability.didEnd(_:)` and from `deinit`.
///
/// ```swift
/// final class Blinker: Capability {
///   private let run = ScheduledRun()
///
///   func blink(times: Int, every interval: Duration, on scheduler: any SchedulingClock) {
///     run.start { id in
///       try? scheduler.scheduleRepeating(every: interval) { [weak self] in
///         guard let self else { return }
///         // ... toggle the host; after the last blink:
///         self.run.finish(id)
///       }
///     }
///   }
///
///   func blinkFinished() async { await run.finished() }
///   func didEnd(_ ending: CapabilityEnding) { run.shutDown() }
///   deinit { run.shutDown() }
/// }
/// ```
///
/// The closures a run schedules must not capture the capability strongly (`[weak self]`):
/// the run keeps their token, and a capability that its own run keeps alive never ends.
public final class ScheduledRun: Sendable, CustomStringConvertible {
  /// Names one run, for ``finish(_:)`` and ``isCurrent(_:)``.
  public struct ID: Hashable, Sendable, CustomStringConvertible {
    fileprivate let generation: UInt64

    /// `run #n`.
    public var description: String { "run #\(generation)" }
  }

  private struct State {
    var generation: UInt64 = 0
    var isRunning = false
    var token: CancellationToken?
    var isShutDown = false
  }

  private let state = LockedState(State())
  let waiters = Waiters<Void>()

  /// Creates a run that has not started.
  ///
  /// ```swift
  /// let run = ScheduledRun()
  /// ```
  public init() {}

  /// Whether a run has started and not ended.
  ///
  /// ```swift
  /// if run.isRunning { return }
  /// ```
  public var isRunning: Bool { state.withLock { $0.isRunning } }

  /// Whether `id` names the run in progress: false once it ended, or another started.
  ///
  /// ```swift
  /// guard run.isCurrent(id) else { return }  // a firing left over from a restart
  /// ```
  public func isCurrent(_ id: ID) -> Bool {
    state.withLock { $0.isRunning && $0.generation == id.generation }
  }

  /// Ends the current run, if any, and starts another.
  ///
  /// It calls `schedule` with the new run's ID, outside every lock, and keeps the token it
  /// returns while the run is current (it is cancelled at once if the run ended meanwhile).
  /// `schedule` may return `nil` for work that needs no token, or that it could not schedule
  /// (then call ``finish(_:)`` or report it).
  ///
  /// After ``shutDown()`` nothing starts: `schedule` is not called, and `nil` is returned.
  ///
  /// ```swift
  /// run.start { id in scheduler.schedule(after: .seconds(1)) { run.finish(id) } }
  /// ```
  ///
  /// - Parameter schedule: Schedules the run's work, given the run's ID; returns the work's
  ///   token, or `nil`.
  /// - Returns: The new run's ID; `nil` after ``shutDown()``.
  @discardableResult
  public func start(_ schedule: (ID) -> CancellationToken?) -> ID? {
    let (id, previous) = state.withLock { state -> (ID?, CancellationToken?) in
      guard !state.isShutDown else { return (nil, nil) }
      state.generation += 1
      state.isRunning = true
      defer { state.token = nil }
      return (ID(generation: state.generation), state.token)
    }
    previous?.cancel()
    guard let id else { return nil }
    let token = schedule(id)
    let kept = state.withLock { state -> Bool in
      guard state.isRunning, state.generation == id.generation else { return false }
      state.token = token
      return true
    }
    if !kept { token?.cancel() }
    return id
  }

  /// Ends run `id` if it is still current, cancelling its scheduled work and resuming the
  /// waiters of ``finished()``; returns whether it was current.
  ///
  /// ```swift
  /// run.finish(id)  // the last blink is shown
  /// ```
  @discardableResult
  public func finish(_ id: ID) -> Bool {
    end { $0.generation == id.generation }
  }

  /// Ends the current run, if any, cancelling its scheduled work and resuming the waiters of
  /// ``finished()``; returns whether a run was in progress. Later runs may still start.
  ///
  /// ```swift
  /// run.cancel()
  /// ```
  @discardableResult
  public func cancel() -> Bool {
    end { _ in true }
  }

  /// Ends the current run as ``cancel()`` does, and refuses every later ``start(_:)``: the
  /// shutdown for `Capability.didEnd(_:)` and `deinit`. Idempotent.
  ///
  /// ```swift
  /// deinit { run.shutDown() }
  /// ```
  public func shutDown() {
    state.withLock { $0.isShutDown = true }
    cancel()
  }

  /// Waits until no run is in progress: returns at once when none is, and when the waiting
  /// task is cancelled. A restart does not end the wait; the end of the run that replaced it
  /// does.
  ///
  /// ```swift
  /// await run.finished()
  /// ```
  public nonisolated(nonsending) func finished() async {
    await waiters.wait(ifCancelled: ()) { isRunning ? nil : () }
  }

  /// `ScheduledRun(run #n, running)` or `ScheduledRun(idle)`.
  public var description: String {
    let (generation, running) = state.withLock { ($0.generation, $0.isRunning) }
    return running ? "ScheduledRun(run #\(generation), running)" : "ScheduledRun(idle)"
  }

  private func end(if matches: (State) -> Bool) -> Bool {
    let token = state.withLock { state -> CancellationToken?? in
      guard state.isRunning, matches(state) else { return .none }
      state.isRunning = false
      defer { state.token = nil }
      return .some(state.token)
    }
    guard case .some(let token) = token else { return false }
    token?.cancel()
    waiters.resumeAll(returning: ())
    return true
  }
}
