/// One property of one host, animated between two values: writes the value at a given
/// progress into the host.
///
/// How the write reaches the property is ``PropertyAccess``'s story; a track only remembers
/// the two values and calls it.
package struct AnimationTrack: Sendable {
  // The property's closure and the values' address, called directly each frame: a closure of
  // the track's own would cost a call and a reference count operation more per write.
  fileprivate let body: PropertyAccessBody
  fileprivate let values: ValuesAddress
  /// Owns the memory at `values`.
  private let owner: TrackValues

  /// A track writing the property `access` reaches, from `from` at progress 0 to `to` at
  /// progress 1.
  ///
  /// With `keepsDistance`, a start read again when the animation starts moves the target by
  /// as much (see ``startingFromCurrentValue(on:)``).
  ///
  /// With `startReported`, the start was not finite when declared, was replaced by `to` and
  /// reported there: one not finite when read again is replaced again without a second report.
  package init<Value>(
    _ access: PropertyAccess<Value>, from: Value, to: Value, keepsDistance: Bool = false,
    startReported: Bool = false
  ) {
    body = access.body
    owner = TrackEnds(
      from: from, to: to, keepsDistance: keepsDistance, startReported: startReported)
    values = ValuesAddress(raw: owner.address)
  }

  private init(body: @escaping PropertyAccessBody, owner: TrackValues) {
    self.body = body
    self.owner = owner
    values = ValuesAddress(raw: owner.address)
  }

  /// This track from the property's value on `host` now to the same target: how an animation
  /// takes its start values when it starts, not when it was declared.
  package func startingFromCurrentValue(on host: AnyObject) -> AnimationTrack {
    AnimationTrack(body: body, owner: owner.rereadingStart(through: body, on: host))
  }

  /// A track writing `keyPath`.
  package init<Host: AnyObject, Value: Interpolatable>(
    _ keyPath: ReferenceWritableKeyPath<Host, Value>, from: Value, to: Value
  ) {
    self.init(PropertyAccess(keyPath), from: from, to: to)
  }

  /// Whether the track keeps a velocity its property had when the animation started.
  package var carriesVelocity: Bool { owner.carriesVelocity }

  /// Whether the start was not finite when declared, and replaced and reported then.
  package var startReported: Bool { owner.startReported }

  /// The property the track animates, named by its key path.
  package func identity(on host: AnyObject) -> AnyKeyPath {
    let scratch = UnsafeMutablePointer<AnyKeyPath>.allocate(capacity: 1)
    defer { scratch.deallocate() }
    body(host, .identify, 0, UnsafeMutableRawPointer(scratch))
    return scratch.move()
  }

  /// The property's velocity while the track's progress changes by `progressRate` and its
  /// carried term by `carryRate` per second.
  package func velocity(progressRate: Double, carryRate: Double) -> TrackVelocity? {
    owner.velocity(progressRate: progressRate, carryRate: carryRate).map(TrackVelocity.init)
  }

  /// This track starting with `velocity`, the velocity of the same property under the motion
  /// it replaces; nil when the values are not of the same type.
  package func carrying(_ velocity: TrackVelocity) -> AnimationTrack? {
    owner.carrying(velocity.values).map { AnimationTrack(body: body, owner: $0) }
  }

  /// Writes the value at `progress`, plus `carry` seconds of a carried velocity, into `host`.
  @inline(__always)
  func write(progress: Double, carry: Double, to host: AnyObject) {
    owner.write(through: body, to: host, progress: progress, carry: carry)
  }

  /// Writes the value at `progress` into `host`, which must be the host the track was recorded
  /// on.
  @inline(__always)
  package func apply(progress: Double, to host: AnyObject) {
    body(host, .write, progress, values.raw)
  }
}

/// A property's velocity at one moment, as two of its values whose difference is the change
/// per second.
package struct TrackVelocity: Sendable {
  fileprivate let values: TrackValues
}

/// The address of a track's values, read each frame without touching (or retaining) the
/// object that owns them.
///
/// `@unchecked Sendable`: the values there are written once, before the track is shared, and
/// only read after; they are `Sendable`.
private struct ValuesAddress: @unchecked Sendable {
  let raw: UnsafeMutableRawPointer

  /// The address of no values, for a write that is never made: never read, written or freed.
  static let none = ValuesAddress(
    raw: UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16))
}

/// A track and where on the animation's time line (0...1) it begins: 0 for the animations an
/// animator was created with, later for those added with a delay factor.
package struct TrackEntry: Sendable {
  package let track: AnimationTrack
  package let startFraction: Double
  /// Where on the time line the track reaches its target: 1, or 0 for a track added while the
  /// animation ran backwards, which moves as the time line runs back.
  package let endFraction: Double

  package init(_ track: AnimationTrack, startFraction: Double = 0, endFraction: Double = 1) {
    self.track = track
    self.startFraction = startFraction
    self.endFraction = endFraction
  }
}

/// An animation's tracks and the timing its delayed tracks run on.
///
/// Immutable: adding tracks makes a new list. A frame can therefore tell by identity alone
/// whether the list it wrote last time is still the animation's, and reuse its own reference to
/// it instead of taking one each frame.
package final class TrackList: Sendable {
  // The first track's write, on the list's own first cache line: most animations animate one
  // property, and a frame then reads no array.
  private let firstBody: PropertyAccessBody
  private let firstValues: ValuesAddress
  private let firstStart: Double
  private let firstEnd: Double
  /// The tracks after the first.
  private let rest: [TrackEntry]
  private let count: Int
  /// Whether a track keeps a carried velocity: those are written through their values, which
  /// add it.
  private let hasCarryingTracks: Bool
  /// The spring's response to a unit of velocity at its end, `h(duration)`, for the carried
  /// term; 0 without carrying tracks.
  private let endResponse: Double
  let timing: ResolvedTiming
  /// Owns the first track's closure context and values.
  private let first: TrackEntry?

  init(_ entries: [TrackEntry], timing: ResolvedTiming) {
    let first = entries.first
    self.first = first
    if let first {
      firstBody = first.track.body
      firstValues = first.track.values
      firstStart = first.startFraction
      firstEnd = first.endFraction
    } else {
      // Never called: a list with no tracks writes nothing.
      firstBody = { _, _, _, _ in }
      firstValues = ValuesAddress.none
      firstStart = 0
      firstEnd = 1
    }
    rest = Array(entries.dropFirst())
    count = entries.count
    hasCarryingTracks = entries.contains { $0.track.carriesVelocity }
    if hasCarryingTracks, case .spring(let spring) = timing.curve {
      endResponse = spring.impulseResponse(at: timing.duration)
    } else {
      endResponse = 0
    }
    self.timing = timing
  }

  /// The tracks with where each begins on the time line.
  package var entries: [TrackEntry] {
    guard let first else { return [] }
    return [first] + rest
  }

  /// The progress of a track that begins at `start` on the time line, at `fraction` of it,
  /// when the tracks that start at 0 show `progress`: tracks that begin later run the timing
  /// curve over the rest of the line.
  @inline(__always)
  func progress(
    startingAt start: Double, endingAt end: Double, fraction: Double, progress: Double
  ) -> Double {
    if start == 0 && end == 1 { return progress }
    let span = end - start
    if span == 0 { return (end >= start ? fraction >= end : fraction <= end) ? 1 : 0 }
    return timing.progress(at: min(max((fraction - start) / span, 0), 1))
  }

  /// Writes every track's value at that moment into `host`, the host the tracks were recorded
  /// on.
  @inline(__always)
  func apply(fraction: Double, progress: Double, to host: AnyObject) {
    guard count > 0 else { return }
    guard !hasCarryingTracks else {
      return applyCarrying(fraction: fraction, progress: progress, to: host)
    }
    firstBody(
      host, .write,
      self.progress(
        startingAt: firstStart, endingAt: firstEnd, fraction: fraction, progress: progress),
      firstValues.raw)
    guard count > 1 else { return }
    // Reads only the fields a write needs: copying an entry would retain and release each of
    // its references.
    rest.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let (start, end) = (entries[index].startFraction, entries[index].endFraction)
        entries[index].track.body(
          host, .write,
          self.progress(
            startingAt: start, endingAt: end, fraction: fraction, progress: progress),
          entries[index].track.values.raw)
      }
    }
  }
}

extension TrackList {
  /// How many seconds' worth of a carried velocity a track adds at `fraction` of the time line
  /// when it shows `progress`: the spring's response to the velocity, `h(t)`, less `h` at the
  /// end scaled by the progress, so that the term starts at 0 with slope 1 and is exactly 0 at
  /// the end, where the animation lands on its target. The correction is tiny: the spring has
  /// settled by then. 0 for timing that carries no velocity.
  @inline(__always)
  func carry(at fraction: Double, progress: Double) -> Double {
    guard case .spring(let spring) = timing.curve, fraction > 0, fraction < 1 else { return 0 }
    return spring.impulseResponse(at: fraction * timing.duration) - endResponse * progress
  }

  /// ``apply(fraction:progress:to:)`` for a list with tracks that carry a velocity: each track
  /// adds its carried term, and the rest write as usual.
  @inline(never)
  fileprivate func applyCarrying(fraction: Double, progress: Double, to host: AnyObject) {
    func write(_ entry: TrackEntry) {
      let trackProgress = self.progress(
        startingAt: entry.startFraction, endingAt: entry.endFraction, fraction: fraction,
        progress: progress)
      let carry =
        entry.track.carriesVelocity ? self.carry(at: fraction, progress: trackProgress) : 0
      entry.track.write(progress: trackProgress, carry: carry, to: host)
    }
    if let first { write(first) }
    for entry in rest { write(entry) }
  }

  /// The velocity of every track's property over `span` seconds, in which the time line moved
  /// from `before` to `after`, keyed by the property; the last track of a property wins, as its
  /// write does. Runs the values' blends: call it outside every lock.
  func velocities(
    from before: (fraction: Double, progress: Double),
    to after: (fraction: Double, progress: Double), over span: Double, on host: AnyObject
  ) -> [AnyKeyPath: TrackVelocity] {
    var velocities: [AnyKeyPath: TrackVelocity] = [:]
    for entry in entries {
      func sample(_ moment: (fraction: Double, progress: Double)) -> (Double, Double) {
        let progress = self.progress(
          startingAt: entry.startFraction, endingAt: entry.endFraction,
          fraction: moment.fraction, progress: moment.progress)
        let carry =
          entry.track.carriesVelocity ? self.carry(at: moment.fraction, progress: progress) : 0
        return (progress, carry)
      }
      let (progressBefore, carryBefore) = sample(before)
      let (progressAfter, carryAfter) = sample(after)
      let velocity = entry.track.velocity(
        progressRate: (progressAfter - progressBefore) / span,
        carryRate: (carryAfter - carryBefore) / span)
      velocities[entry.track.identity(on: host)] = velocity
    }
    return velocities
  }
}

/// The values an animation shows at one moment, to be written into the host outside every
/// lock.
package struct FrameValues: Sendable {
  package let tracks: TrackList
  /// The fraction of the time line elapsed.
  package let fraction: Double
  /// The progress of the tracks that start at 0.
  package let progress: Double

  /// Writes every track's value into `host`.
  package func apply(to host: AnyObject) {
    tracks.apply(fraction: fraction, progress: progress, to: host)
  }
}
