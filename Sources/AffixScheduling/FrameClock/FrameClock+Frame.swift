extension FrameClock {
  /// One tick of a frame clock, as its subscribers see it.
  public struct Frame: Sendable, Equatable {
    /// The frame's position since the clock (re)started: 0 for the first frame after the first
    /// subscription, counting again from 0 after the clock has stopped for lack of subscribers.
    public let index: Int

    /// The scheduler's ``SchedulingClock/now`` when the frame fired.
    public let timestamp: SchedulerInstant

    /// The time since the previous frame, measured on the scheduler's clock; the clock's
    /// ``FrameClock/interval`` for the first frame.
    public let delta: Duration

    /// Creates a frame, for tests of code that receives frames.
    public init(index: Int, timestamp: SchedulerInstant, delta: Duration) {
      self.index = index
      self.timestamp = timestamp
      self.delta = delta
    }
  }
}
