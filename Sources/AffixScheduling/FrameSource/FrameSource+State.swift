import Affix
import Synchronization

extension FrameSource {
  final class Subscriber: Sendable {
    let onFrame: @Sendable (Frame) -> Void
    // Checked right before each call, so a subscription cancelled during a frame is skipped.
    let isActive = Atomic(true)

    init(onFrame: @escaping @Sendable (Frame) -> Void) {
      self.onFrame = onFrame
    }
  }

  enum Timer {
    case stopped
    case starting(UInt64)
    case running(generation: UInt64, token: CancellationToken)
  }

  struct State {
    var subscribers: [UInt64: Subscriber] = [:]
    // The subscribers in subscription order, rebuilt only after a change, so that a frame
    // costs one array copy under the lock however many subscribers there are.
    var snapshot: [Subscriber]?
    var nextID: UInt64 = 0
    var timer = Timer.stopped
    var generation: UInt64 = 0
    var frameIndex = 0
    var lastTimestamp: SchedulingInstant?
    var wakeUps = 0

    /// Marks the timer as starting if it is stopped, returning the generation to start.
    mutating func startIfStopped() -> UInt64? {
      guard case .stopped = timer else { return nil }
      generation += 1
      timer = .starting(generation)
      frameIndex = 0
      lastTimestamp = nil
      return generation
    }

    /// Marks the timer as stopped, returning its token to cancel outside the lock.
    mutating func stop() -> CancellationToken? {
      defer { timer = .stopped }
      if case .running(_, let token) = timer { return token }
      return nil
    }

    /// Drops the snapshot, returning it so that it is released outside the lock.
    mutating func invalidateSnapshot() -> [Subscriber]? {
      defer { snapshot = nil }
      return snapshot
    }

    mutating func currentSnapshot() -> [Subscriber] {
      if let snapshot { return snapshot }
      let ordered = subscribers.sorted { $0.key < $1.key }.map(\.value)
      snapshot = ordered
      return ordered
    }
  }
}
