/// One property of one host, animated between two values.
package protocol AnimationTrack: AnyObject, Sendable {
  /// Writes the value at `progress` into `host`; does nothing if `host` is of another type.
  func apply(progress: Double, to host: AnyObject)
}

/// A track over a key path: the unit the `dance` proxy records.
package final class PropertyTrack<Host: AnyObject, Value: Interpolatable>: AnimationTrack {
  package let keyPath: any ReferenceWritableKeyPath<Host, Value> & Sendable
  package let from: Value
  package let to: Value

  package init(
    _ keyPath: any ReferenceWritableKeyPath<Host, Value> & Sendable, from: Value, to: Value
  ) {
    self.keyPath = keyPath
    self.from = from
    self.to = to
  }

  package func apply(progress: Double, to host: AnyObject) {
    guard let host = host as? Host else { return }
    host[keyPath: keyPath] = Value.interpolate(from: from, to: to, fraction: progress)
  }
}

/// A track and where on the animation's time line (0...1) it begins: 0 for the animations an
/// animator was created with, later for those added with a delay factor.
package struct TrackEntry: Sendable {
  package let track: any AnimationTrack
  package let startFraction: Double

  package init(_ track: any AnimationTrack, startFraction: Double = 0) {
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
