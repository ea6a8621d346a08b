import AffixScheduling

/// The velocities of the properties a group was moving when a later declaration took them,
/// kept for that declaration to start with.
///
/// `@unchecked Sendable`: its key paths are immutable once formed, but `AnyKeyPath` does not
/// say so; everything else in it is `Sendable`. It moves into a dancer's locked state.
struct CarriedVelocities: @unchecked Sendable {
  /// The tag of the animation that took them.
  let tag: Int
  /// When they were taken, in the clock's seconds.
  let time: Double
  let byProperty: [AnyKeyPath: TrackVelocity]

  /// The velocities, if the replacement starts within a frame of the moment they were
  /// measured: later, the properties have stood still since, and there is nothing to keep.
  func velocities(at now: Double, frame: Duration) -> [AnyKeyPath: TrackVelocity]? {
    now - time <= frame / .seconds(1) ? byProperty : nil
  }
}
