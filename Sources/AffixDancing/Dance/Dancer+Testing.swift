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

  /// Whether the dancer holds a frame-source subscription.
  package var isSubscribed: Bool { state.withLock { $0.subscription != nil } }

  /// How many frames wait for the host's actor now, and the most that ever did: at most one,
  /// however long the actor is busy. Zero for a host whose frames never had to wait.
  package var frameBacklog: Backlog {
    // Read outside the dancer's lock: the callback's count takes a lock of its own.
    let frames = state.withLock { $0.frames }
    return frames?.backlog ?? Backlog(now: 0, peak: 0)
  }
}

extension Dancer {
  /// How many running animations the driver of `clock` steps each frame.
  package static func runningCount(on clock: FrameSource) -> Int {
    DanceDriver.memberCount(of: clock)
  }
}

extension Dance {
  /// The wait of ``ended()``, apart from the handle: a non-`Sendable` host's handle stays in
  /// its host's region, and a test waits in a child task while it advances the host's virtual
  /// time itself.
  package var ending: DanceEnding { DanceEnding(dancer: dancer, group: group) }
}

/// What ``Dance/ending`` hands a child task: the dancer and the group, both `Sendable`.
package struct DanceEnding: Sendable {
  let dancer: Dancer
  let group: GroupSelector

  /// Waits as ``Dance/ended()`` does, off every actor.
  package func callAsFunction() async -> AnimatingPosition? {
    await dancer.ended(group: group)
  }
}
