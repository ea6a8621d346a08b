/// One property of one host, animated between two values: writes the value at a given
/// progress into the host.
///
/// How the write reaches the property is ``PropertyAccess``'s story; a track only remembers
/// the two values and calls it.
package struct AnimationTrack: Sendable {
  private let write: @Sendable (AnyObject, Double) -> Void

  /// A track writing the property `access` reaches, from `from` at progress 0 to `to` at
  /// progress 1.
  package init<Value>(_ access: PropertyAccess<Value>, from: Value, to: Value) {
    let ends = TrackEnds(from: from, to: to)
    let body = access.body
    write = { object, progress in
      _ = body(object, .write, progress, ends.values)
    }
  }

  /// A track writing `keyPath`.
  package init<Host: AnyObject, Value: Interpolatable>(
    _ keyPath: ReferenceWritableKeyPath<Host, Value>, from: Value, to: Value
  ) {
    self.init(PropertyAccess(keyPath), from: from, to: to)
  }

  /// Writes the value at `progress` into `host`, which must be the host the track was recorded
  /// on.
  @inline(__always)
  package func apply(progress: Double, to host: AnyObject) {
    write(host, progress)
  }
}

/// A track and where on the animation's time line (0...1) it begins: 0 for the animations an
/// animator was created with, later for those added with a delay factor.
package struct TrackEntry: Sendable {
  package let track: AnimationTrack
  package let startFraction: Double

  package init(_ track: AnimationTrack, startFraction: Double = 0) {
    self.track = track
    self.startFraction = startFraction
  }
}

/// The values an animation shows at one moment, to be written into the host outside every
/// lock.
package struct FrameValues: Sendable {
  package let entries: [TrackEntry]
  /// The fraction of the time line elapsed.
  package let fraction: Double
  /// The progress of the tracks that start at 0.
  package let progress: Double
  let timing: ResolvedTiming

  /// The progress of one track: tracks that begin later run the timing curve over the rest of
  /// the time line.
  package func progress(of entry: TrackEntry) -> Double {
    let start = entry.startFraction
    if start == 0 { return progress }
    if start >= 1 { return fraction >= 1 ? 1 : 0 }
    return timing.progress(at: (fraction - start) / (1 - start))
  }

  /// Writes every track's value into `host`.
  package func apply(to host: AnyObject) {
    for entry in entries {
      entry.track.apply(progress: progress(of: entry), to: host)
    }
  }
}
