internal import Affix
import Dispatch

/// The state of one action scheduled on a ``DispatchClock``, shared by its token and the
/// Dispatch object that fires it.
///
/// Checking for cancellation and starting the action happen under one lock, so an action
/// cancelled before it starts never runs.
final class DispatchWork: Sendable {
  private struct State {
    var action: (@Sendable () -> Void)?
    var handle = DispatchHandle()
  }

  private let state: LockedState<State>
  private let repeats: Bool

  init(action: @escaping @Sendable () -> Void, repeats: Bool) {
    state = LockedState(State(action: action))
    self.repeats = repeats
  }

  /// Keeps `item` so that cancelling can withdraw it from its queue.
  func setWorkItem(_ item: DispatchWorkItem) {
    let handle = DispatchHandle(item: item)
    state.withLock { $0.handle = handle }
  }

  /// Keeps `timer` alive until the work is cancelled: a released source stops firing.
  func setTimer(_ timer: any DispatchSourceTimer) {
    let handle = DispatchHandle(timer: timer)
    state.withLock { $0.handle = handle }
  }

  func fire() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      guard let action = state.action else { return nil }
      if !repeats {
        // The item holds this work: letting go of it breaks the cycle once the work is done.
        state.action = nil
        state.handle = DispatchHandle()
      }
      return action
    }
    action?()
  }

  func cancel() {
    // Dispatch's cancel only marks the item or source, so it may happen under the lock; the
    // action is taken out and released after it, since dropping it may run user deinits.
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      state.handle.cancel()
      state.handle = DispatchHandle()
      defer { state.action = nil }
      return state.action
    }
    withExtendedLifetime(action) {}
  }
}

// libdispatch objects are thread-safe; the Linux overlay just does not declare them Sendable.
private struct DispatchHandle: @unchecked Sendable {
  var item: DispatchWorkItem?
  var timer: (any DispatchSourceTimer)?

  func cancel() {
    item?.cancel()
    timer?.cancel()
  }
}
