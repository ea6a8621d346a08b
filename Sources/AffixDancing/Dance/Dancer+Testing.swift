package import AffixScheduling

extension Dancer {
  /// How many `ended()` calls are waiting, on every group, so that tests can wait for one to
  /// register.
  package var waiterCount: Int {
    state.withLock { $0.groups.map(\.waiters) }.reduce(0) { $0 + $1.count }
  }

  /// Whether a getter has registered an access with Observation: from then on, changes and
  /// frames tell it.
  package var hasBeenObserved: Bool { observation.hasBeenRead }

  /// Whether the dancer holds a frame-clock subscription.
  package var isSubscribed: Bool { state.withLock { $0.subscription != nil } }
}

extension Dancer {
  /// How many running animations the driver of `clock` steps each frame.
  package static func runningCount(on clock: FrameClock) -> Int {
    DanceDriver.memberCount(of: clock)
  }
}
