import Affix

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
  @usableFromInline
  let host: Host
  @usableFromInline
  let recorder: TrackRecorder

  /// The target recorded for the property in this block, or the host's current value; setting
  /// records an animation from the current value to the new one.
  @inlinable
  public subscript<Value: Interpolatable>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Host, Value>
  ) -> Value {
    get {
      recorder.target(of: keyPath) ?? host[keyPath: keyPath]
    }
    nonmutating set {
      // Inlinable, and the key path goes to nothing but `PropertyAccess`: see there why that
      // makes each frame's write a direct one.
      // Reserving first and then only storing leaves no call between making the closure and
      // the end of the key path's life at the call site, which lets the closure own the key
      // path alone (see `TrackRecorder.reserveWrite(of:)`).
      recorder.reserveWrite(of: Value.self).initialize(
        to: PendingWrite(access: PropertyAccess(keyPath), target: newValue))
    }
  }
}

/// A property write of an `animate` block, stored by the proxy's setter and recorded at the
/// recorder's next call.
@usableFromInline
struct PendingWrite<Value: Interpolatable> {
  @usableFromInline
  let access: PropertyAccess<Value>
  @usableFromInline
  let target: Value

  @inlinable
  init(access: PropertyAccess<Value>, target: Value) {
    self.access = access
    self.target = target
  }
}

/// Collects the tracks one `animate` block writes, one per property, in the order first written.
@usableFromInline
final class TrackRecorder {
  private let host: AnyObject
  /// The `animate` call's line, where a value that is not finite is reported.
  private let site: CallSite?
  private var indices: [AnyKeyPath: Int] = [:]
  private var ends: [(start: any Sendable, target: any Sendable)] = []
  private var tracks: [AnimationTrack] = []
  /// Records the write the setter stored last (or, given nil, discards it).
  private var pending: ((TrackRecorder?) -> Void)?

  init(host: AnyObject, site: CallSite?) {
    self.host = host
    self.site = site
  }

  deinit {
    pending?(nil)
  }

  /// The value this block last wrote to the property.
  @usableFromInline
  func target<Value: Interpolatable>(of keyPath: AnyKeyPath) -> Value? {
    recordPending()
    return indices[keyPath].flatMap { ends[$0].target as? Value }
  }

  /// Records the write stored before, then returns room for the next one, which the caller
  /// must initialize before calling the recorder again.
  ///
  /// The setter that stores the write holds the key path it was given for the length of the
  /// call, and the closure that captures it takes a reference of its own. The optimizer drops
  /// that pair of reference counting operations, leaving the closure the key path's only user
  /// (the condition for specializing the closure on it), only when no call lies between them:
  /// so the setter makes the closure after its last call, and the write is recorded later.
  @usableFromInline
  func reserveWrite<Value: Interpolatable>(of _: Value.Type)
    -> UnsafeMutablePointer<PendingWrite<Value>>
  {
    recordPending()
    let slot = UnsafeMutablePointer<PendingWrite<Value>>.allocate(capacity: 1)
    pending = { recorder in
      let write = slot.move()
      slot.deallocate()
      recorder?.record(write.access, to: write.target)
    }
    return slot
  }

  private func recordPending() {
    if let pending {
      self.pending = nil
      pending(self)
    }
  }

  /// Records an animation of the property to `target`: from its current value, or from where
  /// an earlier write in this block started it, which this one replaces.
  ///
  /// A target that is not finite is refused, as if not written: reported, and the property
  /// keeps what it would have without the write. A current value that is not finite is
  /// replaced by the target: the property is written the target from the first frame on.
  func record<Value: Interpolatable>(_ access: PropertyAccess<Value>, to target: Value) {
    let keyPath = access.identity(on: host)
    guard isFiniteValue(target) else {
      report(
        "animate: the target \(target) of \(keyPath) is not finite; the write is ignored")
      return
    }
    if let index = indices[keyPath], let start = ends[index].start as? Value {
      ends[index].target = target
      tracks[index] = AnimationTrack(
        access, from: start, to: target, startReported: tracks[index].startReported)
    } else {
      var start = access.read(on: host)
      let startIsFinite = isFiniteValue(start)
      if !startIsFinite {
        report(
          "animate: \(keyPath) starts at \(start), which is not finite; it is set to its "
            + "target \(target) from the first frame instead of moving there")
        start = target
      }
      indices[keyPath] = tracks.count
      ends.append((start, target))
      tracks.append(
        AnimationTrack(access, from: start, to: target, startReported: !startIsFinite))
    }
  }

  /// Runs `animations` on a proxy of `host` and returns the tracks it wrote.
  static func record<Host: AnyObject>(
    _ host: Host, at site: CallSite?, _ animations: (DanceProxy<Host>) throws -> Void
  ) rethrows -> [AnimationTrack] {
    let recorder = TrackRecorder(host: host, site: site)
    try animations(DanceProxy(host: host, recorder: recorder))
    recorder.recordPending()
    return recorder.tracks
  }

  private func report(_ message: String) {
    if let site {
      Diagnostics.report(
        subsystem: "dance", message: message, fileID: site.fileID, line: site.line)
    } else {
      Diagnostics.report(subsystem: "dance", message: message)
    }
  }
}
