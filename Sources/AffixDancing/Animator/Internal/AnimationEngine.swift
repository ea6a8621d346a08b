/// The `UIViewPropertyAnimator` state machine, driven by explicit time in seconds and free of
/// any clock, host or lock.
///
/// Every mutating call takes the current time, returns the effects to apply after unlocking
/// (values to write, completions to run), and throws `AnimatorMisuse` without changing
/// anything when the call is illegal in the current state.
///
/// The time line: `fractionComplete` is the fraction of the forward animation elapsed (0 shows
/// the start values, 1 the end values, also when reversed). `progress` is the fraction of the
/// change shown, the timing curve of `fractionComplete`, unless scrubbing or new timing
/// parameters moved it off the curve; then the rest of the way is retimed from where it is.
package struct AnimationEngine: Sendable {
  struct Segment {
    var startTime: Double
    var startFraction: Double
    var endFraction: Double
    var startProgress: Double
    var length: Double
    /// The timing over this segment when progress is off the main curve.
    var retiming: ResolvedTiming?
  }

  /// The current segment, while the animation glides along it on its main curve: active,
  /// running, no start delay or pause waiting, a segment of nonzero length that is not retimed.
  /// The common frame needs nothing else, so it sits first, beside what that frame reads and
  /// writes, and is kept up to date by the properties it derives from.
  struct Glide {
    var startTime: Double
    var length: Double
    var startFraction: Double
    var endFraction: Double
  }

  var glide: Glide?
  let timing: ResolvedTiming
  package internal(set) var fractionComplete = 0.0
  package internal(set) var progress = 0.0
  /// Where the last frame's Bezier solve ended, and the next one starts.
  var curveCursor = CubicBezier.Cursor(time: 0)
  /// The tracks and their timing, replaced as a whole when tracks are added.
  package internal(set) var tracks: TrackList

  package internal(set) var state: AnimatingState = .inactive {
    didSet { updateGlide() }
  }
  /// Active and not paused; also true while waiting out a start delay.
  package internal(set) var isRunning = false {
    didSet { updateGlide() }
  }
  package internal(set) var isReversed = false
  package var pausesOnCompletion = false
  /// Whether the animation reaches its end at once, for people who ask for reduced motion:
  /// every stretch of the time line then takes no time, so the first frame shows the end and
  /// completes, as a frame past the end would. Its owner sets it while the animation is
  /// inactive, so that it is decided when the animation starts.
  package var reducesMotion = false
  package var scrubsLinearly = true
  package internal(set) var repeatCount: Int? = 1
  package internal(set) var autoreverses = false

  var completions: [AnimationCompletion] = []
  var segment: Segment? {
    didSet { updateGlide() }
  }
  var startTime: Double? {
    didSet { updateGlide() }
  }
  var pauseTime: Double? {
    didSet { updateGlide() }
  }
  /// The timing given by `continueAnimation`, nil to stay on the main curve, and its factor.
  var continuation: (timing: ResolvedTiming?, durationFactor: Double)?
  /// Traversals still to run after the current one; nil repeats forever.
  var traversalsLeft: Int? = 0

  /// Creates an inactive engine for `tracks`, lasting `duration` seconds (or a physical
  /// spring's own settling time).
  package init(tracks: [AnimationTrack], timing: TimingParameters, duration: Double) {
    let timing = timing.resolved(duration: duration)
    self.tracks = TrackList(tracks.map { TrackEntry($0) }, timing: timing)
    self.timing = timing
  }

  /// The animation's length in seconds.
  package var duration: Double { timing.duration }

  /// Whether a start delay is being waited out.
  package var isWaitingToStart: Bool { startTime != nil }

  /// The values shown now.
  package var values: FrameValues {
    FrameValues(tracks: tracks, fraction: fractionComplete, progress: progress)
  }

  /// The tracks with the time line they are shown at.
  package var entries: [TrackEntry] { tracks.entries }

  // MARK: Time

  /// Moves the animation to `now`: on, to its end (completing, repeating or pausing there),
  /// or to a scheduled pause.
  package mutating func advance(to now: Double) -> AnimationEffects {
    guard state == .active, isRunning else { return AnimationEffects() }
    var time = now
    var pausing = false
    if let pauseTime, pauseTime <= now {
      time = pauseTime
      pausing = true
    }
    if let startTime {
      guard time >= startTime else {
        if pausing { freeze() }
        return AnimationEffects()
      }
      self.startTime = nil
      begin(at: startTime)
    }
    var effects = AnimationEffects()
    var traversals = 0
    while let segment {
      let elapsed = segment.length > 0 ? (time - segment.startTime) / segment.length : 1
      if elapsed < 1 {
        move(along: segment, to: max(elapsed, 0))
        break
      }
      fractionComplete = segment.endFraction
      progress = segment.endFraction
      self.segment = nil
      continuation = nil
      if traversalsLeft != 0 {
        traversals += 1
        if traversals > Self.maximumTraversalsPerAdvance {
          // Repeats too short for the clock to tell apart: on from here, the rest dropped.
          effects.cutTraversals = true
          repeatTraversal(endedAt: time, now: time)
          break
        }
        repeatTraversal(endedAt: segment.startTime + segment.length, now: time)
        if segment.length == 0 && traversalsLeft == nil { break }
        continue
      }
      isRunning = false
      pauseTime = nil
      pausing = false
      if !pausesOnCompletion {
        state = .inactive
        effects.outcome = .completed(isReversed ? .start : .end, takeCompletions())
      }
    }
    if pausing { freeze() }
    // An animation that repeats forever has no end to reach: with reduced motion it holds
    // still at the end of a traversal instead of repeating it every frame.
    if reducesMotion, state == .active, isRunning, traversalsLeft == nil {
      freeze()
      // The next traversal has begun where the last ended only if it turns round.
      if !autoreverses {
        fractionComplete = isReversed ? 0 : 1
        progress = fractionComplete
      }
    }
    effects.values = values
    return effects
  }

  /// The common frame of a running animation: moves along the current segment when `now`
  /// stays inside it and nothing is scheduled (a start delay, a pause), and returns the values
  /// to write. Otherwise changes nothing and returns nil: `advance(to:)` does the work.
  package mutating func advanceWithinSegment(to now: Double) -> FrameValues? {
    moveWithinSegment(to: now) ? values : nil
  }

  /// ``advanceWithinSegment(to:)`` without making the values: whether the frame stayed within
  /// the segment (and moved on), for a caller that reads `fractionComplete`, `progress` and
  /// `tracks` itself.
  @inline(__always)
  package mutating func moveWithinSegment(to now: Double) -> Bool {
    guard let glide else { return false }
    let elapsed = (now - glide.startTime) / glide.length
    guard elapsed < 1 else { return false }
    // As `move(along:to:)` computes them, for a segment on the main curve.
    fractionComplete =
      glide.startFraction + (glide.endFraction - glide.startFraction) * max(elapsed, 0)
    progress = timing.progress(at: fractionComplete, cursor: &curveCursor)
    return true
  }

  /// Where the common frame left the animation: the fraction, the progress and the address of
  /// the track list to write, which the engine holds.
  ///
  /// `@unchecked Sendable`: the address is of a `TrackList`, which is `Sendable`, kept alive by
  /// the engine and by the frame memo that reads it after the dancer's lock.
  package struct CommonFrame: @unchecked Sendable {
    package let fraction: Double
    package let progress: Double
    package let tracks: UnsafeMutableRawPointer
  }

  /// ``moveWithinSegment(to:)`` and what its caller reads after, in one call: nil when the
  /// frame needs `advance(to:)`.
  @inline(__always)
  package mutating func commonFrame(to now: Double) -> CommonFrame? {
    guard moveWithinSegment(to: now) else { return nil }
    return CommonFrame(
      fraction: fractionComplete, progress: progress,
      tracks: Unmanaged.passUnretained(tracks).toOpaque())
  }

  mutating func updateGlide() {
    guard state == .active, isRunning, startTime == nil, pauseTime == nil, let segment,
      segment.length > 0, segment.retiming == nil
    else {
      glide = nil
      return
    }
    glide = Glide(
      startTime: segment.startTime, length: segment.length,
      startFraction: segment.startFraction, endFraction: segment.endFraction)
  }

  // MARK: Internals

  /// The most traversals one advance begins: repeats shorter than the clock can resolve (an
  /// animation of 1e-300 s repeating for ever) would otherwise begin one after another at the
  /// same instant, for ever, inside one frame. Whole traversals that a frame spans are skipped
  /// in one go, so an animation that can be followed needs a handful at most.
  package static let maximumTraversalsPerAdvance = 1000

  var initialTraversalsLeft: Int? {
    guard let repeatCount else { return nil }
    let (total, overflow) = repeatCount.multipliedReportingOverflow(by: autoreverses ? 2 : 1)
    return overflow ? nil : total - 1
  }

  mutating func takeCompletions() -> [AnimationCompletion] {
    defer { completions = [] }
    return completions
  }

  /// Puts an animation that leaves the inactive state at its beginning.
  mutating func rewind() {
    fractionComplete = isReversed ? 1 : 0
    progress = fractionComplete
    traversalsLeft = initialTraversalsLeft
    continuation = nil
    segment = nil
    startTime = nil
    pauseTime = nil
  }

  mutating func freeze() {
    isRunning = false
    segment = nil
    startTime = nil
    pauseTime = nil
  }

  mutating func begin(at time: Double) {
    let end = isReversed ? 0.0 : 1.0
    let offCurve = abs(progress - timing.progress(at: fractionComplete)) > 1e-12
    segment = Segment(
      startTime: time,
      startFraction: fractionComplete,
      endFraction: end,
      startProgress: progress,
      length: reducesMotion
        ? 0 : timing.duration * abs(end - fractionComplete) * (continuation?.durationFactor ?? 1),
      retiming: continuation?.timing ?? (offCurve ? timing : nil))
  }

  mutating func move(along segment: Segment, to elapsed: Double) {
    fractionComplete =
      segment.startFraction + (segment.endFraction - segment.startFraction) * elapsed
    if let retiming = segment.retiming {
      progress =
        segment.startProgress + (segment.endFraction - segment.startProgress)
        * retiming.progress(at: elapsed)
    } else {
      progress = timing.progress(at: fractionComplete, cursor: &curveCursor)
    }
  }

  /// Starts the next traversal where the last one ended, skipping whole traversals that also
  /// ended before `now` so a long gap costs O(1).
  mutating func repeatTraversal(endedAt end: Double, now: Double) {
    let length = timing.duration
    var starting = 1
    // Whole traversals that ended before `now`: beyond 1e15 they cannot be counted exactly
    // (nor their time added to `end` without rounding it away), so they all count.
    let whole = length > 0 ? (now - end) / length : 0
    let countable = whole < 1e15
    if let left = traversalsLeft {
      let more = left - 1
      if length > 0 && more > 0 {
        starting += countable ? min(more, Int(max(whole, 0))) : more
      } else if length == 0 {
        starting = left
      }
      traversalsLeft = left - starting
    } else if length > 0 && countable {
      starting += Int(max(whole, 0))
    }
    let skippedTime = Double(starting - 1) * length
    if autoreverses && starting % 2 == 1 { isReversed.toggle() }
    fractionComplete = isReversed ? 1 : 0
    progress = fractionComplete
    begin(at: countable ? end + skippedTime : now)
  }
}
