/// One property of one host, animated between two values: writes the value at a given
/// progress into the host.
///
/// How the write reaches the property is ``PropertyAccess``'s story; a track only remembers
/// the two values and calls it.
package struct AnimationTrack: Sendable {
  // The property's closure and the values' address, called directly each frame: a closure of
  // the track's own would cost a call and a reference count operation more per write.
  fileprivate let body:
    @Sendable (AnyObject, PropertyOperation, Double, UnsafeMutableRawPointer) ->
      AnyKeyPath?
  fileprivate let values: ValuesAddress
  /// Owns the memory at `values`.
  private let owner: TrackValues

  /// A track writing the property `access` reaches, from `from` at progress 0 to `to` at
  /// progress 1.
  package init<Value>(_ access: PropertyAccess<Value>, from: Value, to: Value) {
    body = access.body
    owner = TrackEnds(from: from, to: to)
    values = ValuesAddress(raw: owner.address)
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
    _ = body(host, .write, progress, values.raw)
  }
}

/// The address of a track's values, read each frame without touching (or retaining) the
/// object that owns them.
///
/// `@unchecked Sendable`: the values there are written once, before the track is shared, and
/// only read after; they are `Sendable`.
private struct ValuesAddress: @unchecked Sendable {
  let raw: UnsafeMutableRawPointer
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
    // Reads only the fields a write needs: copying an entry would retain and release each of
    // its references.
    entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let progress = progress(of: entries[index])
        _ = entries[index].track.body(host, .write, progress, entries[index].track.values.raw)
      }
    }
  }
}
