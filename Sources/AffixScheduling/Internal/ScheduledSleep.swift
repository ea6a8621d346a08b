internal import Affix

/// One task sleeping on a scheduler: a one-shot action that resumes it, and a cancellation
/// handler that withdraws the action and resumes it with `CancellationError`.
///
/// Whichever comes first, the firing or the cancellation, resumes the task; the other finds
/// nothing left to do. Both resume outside the lock.
final class ScheduledSleep: Sendable {
  private enum Phase {
    /// The action is being scheduled; the continuation is not stored yet.
    case starting
    case sleeping(UnsafeContinuation<Void, any Error>, CancellationToken)
    /// The action fired before the continuation was stored.
    case firedEarly
    /// The task was cancelled before the continuation was stored.
    case cancelledEarly
    case ended
  }

  private let phase = LockedState(Phase.starting)
  /// Runs under no lock once the task is sleeping, with the action in the scheduler's queue.
  private let didStart: @Sendable () -> Void
  /// Runs, before the task resumes, when a sleep that started ends, woken or cancelled.
  private let didEnd: @Sendable () -> Void

  private init(didStart: @escaping @Sendable () -> Void, didEnd: @escaping @Sendable () -> Void) {
    self.didStart = didStart
    self.didEnd = didEnd
  }

  /// Suspends the calling task until `scheduler`'s clock reaches `deadline`.
  ///
  /// Returns at once when the deadline has passed. Throws `CancellationError` if the task is
  /// cancelled before or while it sleeps; the scheduled action is then cancelled too.
  static func sleep<S: SchedulingClock>(
    on scheduler: S, until deadline: SchedulingInstant,
    didStart: @escaping @Sendable () -> Void = {}, didEnd: @escaping @Sendable () -> Void = {}
  ) async throws {
    try Task.checkCancellation()
    let delay = deadline - scheduler.now
    guard delay > .zero else { return }
    let sleep = ScheduledSleep(didStart: didStart, didEnd: didEnd)
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        let token = scheduler.schedule(after: delay) { sleep.fire() }
        sleep.start(continuation, token: token)
      }
    } onCancel: {
      sleep.cancel()
    }
  }

  private func start(_ continuation: UnsafeContinuation<Void, any Error>, token: CancellationToken)
  {
    let early = phase.withLock { phase -> Phase? in
      guard case .starting = phase else { return phase }
      phase = .sleeping(continuation, token)
      return nil
    }
    switch early {
    case nil:
      didStart()
    case .firedEarly?:
      continuation.resume()
    default:
      token.cancel()
      continuation.resume(throwing: CancellationError())
    }
  }

  private func fire() {
    let continuation = phase.withLock { phase -> UnsafeContinuation<Void, any Error>? in
      switch phase {
      case .starting:
        phase = .firedEarly
        return nil
      case .sleeping(let continuation, _):
        phase = .ended
        return continuation
      default:
        return nil
      }
    }
    guard let continuation else { return }
    didEnd()
    continuation.resume()
  }

  private func cancel() {
    let sleeping = phase.withLock {
      phase -> (UnsafeContinuation<Void, any Error>, CancellationToken)? in
      switch phase {
      case .starting:
        phase = .cancelledEarly
        return nil
      case .sleeping(let continuation, let token):
        phase = .ended
        return (continuation, token)
      default:
        return nil
      }
    }
    guard let (continuation, token) = sleeping else { return }
    token.cancel()
    didEnd()
    continuation.resume(throwing: CancellationError())
  }
}
