import Affix
import AffixScheduling

/// What one frame of the driver decided once for all its members.
struct FrameContext {
  /// Whether the frame runs on the main queue, asked at most once a frame.
  private var isMainQueue: Bool?

  /// Whether a write to a host that lives in `isolation` may happen here, now: for a
  /// main-actor host only on the main queue; never for another actor (nor before any
  /// animation named one).
  @inline(__always)
  mutating func writesHere(_ isolation: Dancer.HostIsolation) -> Bool {
    switch isolation {
    case .other, .undeclared: return false
    case .mainActor:
      if let isMainQueue { return isMainQueue }
      let answer = Self.onMainQueue()
      isMainQueue = answer
      return answer
    }
  }

  @inline(never)
  private static func onMainQueue() -> Bool {
    IsolatedCallback<Void>.runsInline(in: MainActor.shared)
  }
}
