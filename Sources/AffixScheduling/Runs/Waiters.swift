import Affix

/// Tasks waiting for a capability's work to end, resumed together: what `finished()`,
/// `ended()` and `settled()` are made of.
///
/// A waiter registers first and then asks whether the work has already ended; the code that
/// ends the work records that in its own state first, and then resumes the waiters. Whichever
/// comes first, no waiter misses the end, and neither side needs the other's lock. A waiting
/// task that is cancelled returns at once.
///
/// ```swift
/// final class Blinker: Capability {
///   private let blinking = LockedState(false)
///   private let waiters = Waiters<Void>()
///
///   func blinkFinished() async {
///     await waiters.wait(ifCancelled: ()) { blinking.withLock { $0 } ? nil : () }
///   }
///
///   func stop() {
///     blinking.withLock { $0 = false }  // first the state,
///     waiters.resumeAll(returning: ())  // then the waiters
///   }
/// }
/// ```
public final class Waiters<Value: Sendable>: Sendable {
  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Value, Never>
  }

  private struct State {
    var waiters: [Waiter] = []
    var nextID: UInt64 = 0
  }

  private let state = LockedState(State())

  /// Creates an empty list.
  ///
  /// ```swift
  /// let waiters = Waiters<Int>()
  /// ```
  public init() {}

  /// How many tasks are waiting.
  ///
  /// ```swift
  /// #expect(waiters.count == 0)
  /// ```
  public var count: Int { state.withLock { $0.waiters.count } }

  /// Waits until ``resumeAll(returning:)``, and returns its value.
  ///
  /// It returns `ended()`'s value at once when it is not `nil` (the work has ended already),
  /// and `cancelledValue` at once when the task is cancelled.
  ///
  /// `ended` is called after the waiter registers, outside this list's lock, on the caller's
  /// isolation; it reads the state that the code ending the work writes before it resumes the
  /// waiters.
  ///
  /// ```swift
  /// let position = await waiters.wait(ifCancelled: nil) { engine.withLock { $0.endedAt } }
  /// ```
  ///
  /// - Parameters:
  ///   - cancelledValue: What it returns when the task is cancelled.
  ///   - ended: Reads the end of the work: its value when it has ended already, else `nil`.
  /// - Returns: The value of ``resumeAll(returning:)``, of `ended`, or `cancelledValue`.
  public nonisolated(nonsending) func wait(
    ifCancelled cancelledValue: Value, unlessEnded ended: () -> Value?
  ) async -> Value {
    await wait(isolation: #isolation, ifCancelled: cancelledValue, unlessEnded: ended)
  }

  /// The body of ``wait(ifCancelled:unlessEnded:)``. Its closures capture `isolation`, a
  /// parameter, and so run there: a closure written in a `nonisolated(nonsending)` function
  /// is nonisolated, and would leave the caller's actor before the waiter registers (on the
  /// main actor, letting the main queue end the work unseen in between).
  private func wait(
    isolation: isolated (any Actor)?, ifCancelled cancelledValue: Value,
    unlessEnded ended: () -> Value?
  ) async -> Value {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    return await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          // Checked under the lock that the cancellation handler takes too.
          let registered = state.withLock { state -> Bool in
            guard !Task.isCancelled else { return false }
            state.waiters.append(Waiter(id: id, continuation: continuation))
            return true
          }
          guard registered else { return continuation.resume(returning: cancelledValue) }
          // After registering: an end recorded before this read is seen here, one recorded
          // after it resumes the waiter registered above.
          if let value = ended(), let waiter = remove(id) {
            waiter.continuation.resume(returning: value)
          }
        }
      },
      onCancel: {
        remove(id)?.continuation.resume(returning: cancelledValue)
      }, isolation: isolation)
  }

  /// Resumes every waiting task with `value`. Call it after recording the end in the state
  /// that `wait`'s `unlessEnded` reads, and outside your own locks.
  ///
  /// ```swift
  /// waiters.resumeAll(returning: ())
  /// ```
  public func resumeAll(returning value: Value) {
    let waiters = state.withLock { state in
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume(returning: value) }
  }

  private func remove(_ id: UInt64) -> Waiter? {
    state.withLock { state in
      state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
    }
  }
}
