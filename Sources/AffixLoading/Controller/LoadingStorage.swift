import Affix
import AffixScheduling

/// A ``LoadingController``'s state machine under its lock, and the tasks waiting in
/// `settled()`.
///
/// Each transition runs under the lock and returns its actions; the controller performs them
/// after unlocking, so that no indicator, clock, report or continuation is reached inside.
final class LoadingStorage: Sendable {
  private let machine = LockedState(LoadingStateMachine())
  /// Tasks waiting in `settled()`.
  let waiters = Waiters<Void>()

  /// Runs `body`, a transition, under the lock, and returns its actions.
  func withLock<Action: Sendable>(_ body: (inout sending LoadingStateMachine) -> Action)
    -> Action
  {
    machine.withLock(body)
  }

  /// Changes the state with `body`, a pure transition, telling Observation of the public
  /// properties of `controller` it changes, before the change and outside the lock, as
  /// Observation asks.
  ///
  /// Until anything has read, one locked run. After: `body` first runs on a copy; if it changes
  /// no public property it is kept, in the same locked section. Otherwise the controller tells
  /// Observation of the properties it changes, then runs `body` again on the state as it is
  /// then (another thread may have changed it in between: Observation was told of what the
  /// first run changes, and what only the second run changes is announced after it).
  func change<Action: Sendable>(
    of controller: LoadingController,
    _ body: (inout sending LoadingStateMachine) -> Action
  ) -> Action {
    typealias PublicProperty = LoadingController.PublicProperty
    guard controller.observation.hasBeenRead else { return machine.withLock(body) }
    let (kept, changes) = machine.withLock { state -> (Action?, [PublicProperty]) in
      var changed = state
      let result = body(&changed)
      let changes = PublicProperty.changes(from: state, to: changed)
      guard changes.isEmpty else { return (nil, changes) }
      state = changed
      return (result, [])
    }
    if let kept { return kept }
    for property in changes { property.willSet(of: controller) }
    let (result, unannounced) = machine.withLock { state -> (Action, [PublicProperty]) in
      let before = state
      let result = body(&state)
      return (
        result, PublicProperty.changes(from: before, to: state).filter { !changes.contains($0) }
      )
    }
    for property in changes { property.didSet(of: controller) }
    for property in unannounced {
      property.willSet(of: controller)
      property.didSet(of: controller)
    }
    return result
  }

  /// The indicator's last call has run: resumes the waiters of `settled()` if nothing else is
  /// loading.
  func lastCallDrawn() {
    if machine.withLock({ $0.lastCallDrawn() }) { waiters.resumeAll(returning: ()) }
  }

  /// Resumes the waiters of `settled()` if nothing is loading or being drawn.
  func resumeWaitersIfIdle() {
    if machine.withLock({ $0.isIdle }) { waiters.resumeAll(returning: ()) }
  }

  /// Whether nothing is loading or being drawn.
  var isIdle: Bool { machine.withLock { $0.isIdle } }
}
