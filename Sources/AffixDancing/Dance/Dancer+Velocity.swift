import AffixScheduling

/// The velocities of the properties an animation was moving when another replaced it, kept
/// for the replacement to start with.
struct CarriedVelocities {
  /// The tag of the animation that replaced it.
  let tag: Int
  /// When it was replaced, in the clock's seconds.
  let time: Double
  let byProperty: [AnyKeyPath: TrackVelocity]

  /// The velocities, if the replacement starts within a frame of the moment they were
  /// measured: later, the properties have stood still since, and there is nothing to keep.
  func velocities(at now: Double, frame: Duration) -> [AnyKeyPath: TrackVelocity]? {
    let components = frame.components
    let seconds = Double(components.seconds) + Double(components.attoseconds) * 1e-18
    return now - time <= seconds ? byProperty : nil
  }
}

extension Dancer {
  /// Measures how fast `engine`, the animation just replaced, moved each of its properties at
  /// `time`, and keeps it for the animation `tag` to start with. Runs the values' blends, so
  /// outside the lock.
  func rememberVelocities(
    of engine: AnimationEngine, at time: Double, for tag: Int, on host: AnyObject
  ) {
    guard let motion = engine.motion(at: time) else { return }
    let velocities = engine.tracks.velocities(
      from: motion.before, to: motion.after, over: motion.span, on: host)
    guard !velocities.isEmpty else { return }
    state.withLock { state in
      guard state.tag == tag, state.engine?.state == .inactive else { return }
      state.carried = CarriedVelocities(tag: tag, time: time, byProperty: velocities)
    }
  }
}
