extension FrameSource {
  /// One tick of a frame source, as its subscribers see it.
  public struct Frame: Sendable, Equatable {
    /// The frame's position since the source (re)started.
    ///
    /// It is 0 for the first frame after the first subscription, and counts again from 0 after
    /// the source has stopped for lack of subscribers.
    public let index: Int

    /// The source's ``FrameSource/clock``'s ``SchedulingClock/now`` when the frame fired.
    public let timestamp: SchedulingInstant

    /// The time since the previous frame, measured on the source's clock; the source's
    /// ``FrameSource/interval`` for the first frame.
    public let delta: Duration

    /// Creates a frame, for tests of code that receives frames.
    public init(index: Int, timestamp: SchedulingInstant, delta: Duration) {
      self.index = index
      self.timestamp = timestamp
      self.delta = delta
    }
  }
}
