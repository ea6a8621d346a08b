/// What `$0` is inside an `animate` block: the host, seen through its animatable properties.
///
/// Writing a property records an animation of it from its current value to the value written;
/// the host itself is not touched until the animation runs. Reading a property gives the value
/// last written in this block, or the host's current value. Any property reachable through a
/// writable key path whose type is ``Interpolatable`` can be animated:
///
/// ```swift
/// view.dance.animate(duration: 1) {
///   $0.center = CGPoint(x: 100, y: 100)
///   $0.alpha = 0.5
///   $0.frame.size.width *= 2   // reads the target set so far, or the current width
/// }
/// ```
@dynamicMemberLookup
public struct DanceProxy<Host: AnyObject> {
  let host: Host
  let recorder: TrackRecorder

  /// The target recorded for the property in this block, or the host's current value; setting
  /// records an animation from the current value to the new one.
  public subscript<Value: Interpolatable>(
    dynamicMember keyPath: any ReferenceWritableKeyPath<Host, Value> & Sendable
  ) -> Value {
    get {
      recorder.target(of: keyPath) ?? host[keyPath: keyPath]
    }
    nonmutating set {
      recorder.record(keyPath, from: host[keyPath: keyPath], to: newValue)
    }
  }
}

/// Collects the tracks one `animate` block writes, one per property, in the order first written.
final class TrackRecorder {
  private var indices: [AnyKeyPath: Int] = [:]
  private(set) var tracks: [any AnimationTrack] = []

  func target<Host: AnyObject, Value: Interpolatable>(
    of keyPath: any ReferenceWritableKeyPath<Host, Value> & Sendable
  ) -> Value? {
    guard let index = indices[keyPath] else { return nil }
    return (tracks[index] as? PropertyTrack<Host, Value>)?.to
  }

  func record<Host: AnyObject, Value: Interpolatable>(
    _ keyPath: any ReferenceWritableKeyPath<Host, Value> & Sendable, from: Value, to: Value
  ) {
    if let index = indices[keyPath], let existing = tracks[index] as? PropertyTrack<Host, Value> {
      tracks[index] = PropertyTrack(keyPath, from: existing.from, to: to)
    } else {
      indices[keyPath] = tracks.count
      tracks.append(PropertyTrack(keyPath, from: from, to: to))
    }
  }

  /// Runs `animations` on a proxy of `host` and returns the tracks it wrote.
  static func record<Host: AnyObject>(
    _ host: Host, _ animations: (DanceProxy<Host>) throws -> Void
  ) rethrows -> [any AnimationTrack] {
    let recorder = TrackRecorder()
    try animations(DanceProxy(host: host, recorder: recorder))
    return recorder.tracks
  }
}
