/// A handler told where an animation ended, with the wait for the call to have run where the
/// handler was written: `ended()` returns only after it.
package struct AnimationCompletion: Sendable {
  private let call: @Sendable (AnimatingPosition) -> Void
  private let wait: @Sendable () async -> Void

  /// A handler that runs `call`; `delivered` returns once the calls made so far have run.
  package init(
    delivered: @escaping @Sendable () async -> Void = {},
    _ call: @escaping @Sendable (AnimatingPosition) -> Void
  ) {
    self.call = call
    self.wait = delivered
  }

  package func callAsFunction(_ position: AnimatingPosition) {
    call(position)
  }

  /// Returns once the calls made so far have run where the handler was written.
  package func delivered() async {
    await wait()
  }
}

/// A call the engine refused because it made no sense in the current state or with the given
/// argument; the engine is left exactly as it was.
package struct AnimatorMisuse: Error, Equatable, CustomStringConvertible {
  package let description: String

  package init(_ description: String) {
    self.description = description
  }
}

/// What a call on the engine asks its owner to do once the owner's lock is released.
package struct AnimationEffects: Sendable {
  package enum Outcome: Sendable {
    /// The animation goes on (or has not ended on this call).
    case none
    /// The animation ended at a position: run these completions with it.
    case completed(AnimatingPosition, [AnimationCompletion])
    /// The animation was stopped without finishing: its completions never run.
    case abandoned
  }

  /// Values to write into the host, if they changed.
  package var values: FrameValues?
  package var outcome: Outcome = .none
  /// Completions that will never run, to be released after unlocking: they may hold the last
  /// reference to the host, whose death calls back into its dance.
  package var dropped: [AnimationCompletion] = []
  /// Whether the call stopped repeating after ``AnimationEngine/maximumTraversalsPerAdvance``
  /// traversals and began the next one at the frame's time, dropping the rest.
  package var cutTraversals = false

  package init() {}

  package var completedPosition: AnimatingPosition? {
    if case .completed(let position, _) = outcome { return position }
    return nil
  }
}

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
  private struct Segment {
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
  private struct Glide {
    var startTime: Double
    var length: Double
    var startFraction: Double
    var endFraction: Double
  }

  private var glide: Glide?
  let timing: ResolvedTiming
  package private(set) var fractionComplete = 0.0
  package private(set) var progress = 0.0
  /// Where the last frame's Bezier solve ended, and the next one starts.
  private var curveCursor = CubicBezier.Cursor(time: 0)
  /// The tracks and their timing, replaced as a whole when tracks are added.
  package private(set) var tracks: TrackList

  package private(set) var state: AnimatingState = .inactive {
    didSet { updateGlide() }
  }
  /// Active and not paused; also true while waiting out a start delay.
  package private(set) var isRunning = false {
    didSet { updateGlide() }
  }
  package private(set) var isReversed = false
  package var pausesOnCompletion = false
  /// Whether the animation reaches its end at once, for people who ask for reduced motion:
  /// every stretch of the time line then takes no time, so the first frame shows the end and
  /// completes, as a frame past the end would. Its owner sets it while the animation is
  /// inactive, so that it is decided when the animation starts.
  package var reducesMotion = false
  package var scrubsLinearly = true
  package private(set) var repeatCount: Int? = 1
  package private(set) var autoreverses = false

  private var completions: [AnimationCompletion] = []
  private var segment: Segment? {
    didSet { updateGlide() }
  }
  private var startTime: Double? {
    didSet { updateGlide() }
  }
  private var pauseTime: Double? {
    didSet { updateGlide() }
  }
  /// The timing given by `continueAnimation`, nil to stay on the main curve, and its factor.
  private var continuation: (timing: ResolvedTiming?, durationFactor: Double)?
  /// Traversals still to run after the current one; nil repeats forever.
  private var traversalsLeft: Int? = 0

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

  private mutating func updateGlide() {
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

  // MARK: Control

  /// Starts or resumes the animation, now or after `delay` seconds.
  package mutating func start(at now: Double, after delay: Double = 0) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard delay.isFinite, delay >= 0 else {
      throw AnimatorMisuse("start delay \(delay) is not a finite number of seconds >= 0")
    }
    var effects = AnimationEffects()
    switch state {
    case .stopped:
      throw AnimatorMisuse("cannot start a stopped animation; finish it first")
    case .active where isRunning:
      return effects
    case .inactive:
      state = .active
      rewind()
      effects.values = values
    case .active:
      break
    }
    isRunning = true
    pauseTime = nil
    if delay > 0 {
      startTime = now + delay
    } else {
      begin(at: now)
    }
    return effects
  }

  /// Pauses the animation where it is; an inactive one becomes active and paused at its start.
  package mutating func pause(at now: Double) throws(AnimatorMisuse) -> AnimationEffects {
    switch state {
    case .stopped:
      throw AnimatorMisuse("cannot pause a stopped animation; finish it first")
    case .inactive:
      state = .active
      rewind()
      var effects = AnimationEffects()
      effects.values = values
      return effects
    case .active:
      guard isRunning else { return AnimationEffects() }
      var effects = advance(to: now)
      if state == .active && isRunning {
        freeze()
        effects.values = values
      }
      return effects
    }
  }

  /// Schedules a pause `delay` seconds from now.
  package mutating func pause(at now: Double, after delay: Double) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard delay.isFinite, delay >= 0 else {
      throw AnimatorMisuse("pause delay \(delay) is not a finite number of seconds >= 0")
    }
    guard state == .active, isRunning else {
      throw AnimatorMisuse("cannot schedule a pause: the animation is not running")
    }
    if delay == 0 { return try pause(at: now) }
    pauseTime = now + delay
    return AnimationEffects()
  }

  /// Stops the animation. Without finishing it becomes inactive and its completions never run;
  /// otherwise it is stopped, its values frozen, waiting for `finish(at:now:)`.
  package mutating func stop(withoutFinishing: Bool, at now: Double) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard state == .active else {
      throw AnimatorMisuse(
        state == .stopped
          ? "the animation is already stopped" : "cannot stop an animation that is not active")
    }
    var effects = advance(to: now)
    guard state == .active else { return effects }
    freeze()
    if withoutFinishing {
      state = .inactive
      effects.dropped = takeCompletions()
      effects.outcome = .abandoned
    } else {
      state = .stopped
    }
    effects.values = values
    return effects
  }

  /// Finishes a stopped animation at `position`, running its completions with it.
  package mutating func finish(at position: AnimatingPosition) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard state == .stopped else {
      throw AnimatorMisuse("cannot finish an animation that is \(state), only a stopped one")
    }
    switch position {
    case .end:
      fractionComplete = 1
      progress = 1
    case .start:
      fractionComplete = 0
      progress = 0
    case .current:
      break
    }
    state = .inactive
    var effects = AnimationEffects()
    effects.values = values
    effects.outcome = .completed(position, takeCompletions())
    return effects
  }

  /// Scrubs a paused (or inactive) animation to `fraction`; linearly if `scrubsLinearly`,
  /// along the timing curve otherwise.
  package mutating func setFractionComplete(_ fraction: Double) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard fraction.isFinite, (0...1).contains(fraction) else {
      throw AnimatorMisuse("progress \(fraction) is outside 0...1")
    }
    switch state {
    case .stopped:
      throw AnimatorMisuse("cannot scrub a stopped animation; finish it first")
    case .active where isRunning:
      throw AnimatorMisuse("cannot scrub a running animation; pause it first")
    case .inactive:
      state = .active
      rewind()
    case .active:
      break
    }
    fractionComplete = fraction
    progress = scrubsLinearly ? fraction : timing.progress(at: fraction)
    var effects = AnimationEffects()
    effects.values = values
    return effects
  }

  /// Sets the direction; a running animation turns round where it is.
  package mutating func setReversed(_ reversed: Bool, at now: Double) throws(AnimatorMisuse)
    -> AnimationEffects
  {
    guard state != .stopped else {
      throw AnimatorMisuse("cannot reverse a stopped animation; finish it first")
    }
    guard reversed != isReversed else { return AnimationEffects() }
    guard state == .active, isRunning, startTime == nil else {
      isReversed = reversed
      return AnimationEffects()
    }
    let effects = advance(to: now)
    isReversed = reversed
    if state == .active && isRunning {
      begin(at: now)
    }
    return effects
  }

  /// Adds tracks that begin `delayFactor` of the remaining time from now and end with the
  /// animation.
  package mutating func addTracks(
    _ tracks: [AnimationTrack], delayFactor: Double, at now: Double
  ) throws(AnimatorMisuse) -> AnimationEffects {
    guard delayFactor.isFinite, (0...1).contains(delayFactor) else {
      throw AnimatorMisuse("delay factor \(delayFactor) is outside 0...1")
    }
    guard state != .stopped else {
      throw AnimatorMisuse("cannot add animations to a stopped animation")
    }
    let effects = advance(to: now)
    let current = state == .active ? fractionComplete : (isReversed ? 1 : 0)
    // Added tracks run over what is left of the time line in the direction it runs: towards 0
    // when reversed.
    let end: Double = isReversed ? 0 : 1
    let start = current + delayFactor * (end - current)
    self.tracks = TrackList(
      self.tracks.entries
        + tracks.map { TrackEntry($0, startFraction: start, endFraction: end) },
      timing: timing)
    return effects
  }

  /// Runs the rest of an active animation with new timing parameters (nil keeps the current
  /// ones) over `durationFactor` times the remaining time, and resumes it if paused.
  package mutating func continueAnimation(
    timing parameters: TimingParameters?, durationFactor: Double, at now: Double
  ) throws(AnimatorMisuse) -> AnimationEffects {
    guard durationFactor.isFinite, durationFactor >= 0 else {
      throw AnimatorMisuse("duration factor \(durationFactor) is not a finite number >= 0")
    }
    guard state == .active else {
      throw AnimatorMisuse("cannot continue an animation that is \(state)")
    }
    let effects = advance(to: now)
    guard state == .active else { return effects }
    // Without new parameters the animation stays on its curve, as `start` resumes it: only
    // its pace changes, by the factor.
    continuation = (parameters?.resolved(duration: timing.duration), durationFactor)
    isRunning = true
    startTime = nil
    pauseTime = nil
    begin(at: now)
    return effects
  }

  /// Replaces the tracks of an animation that has not become active yet (their start values
  /// read again); refused otherwise.
  package mutating func replaceTracks(_ entries: [TrackEntry]) throws(AnimatorMisuse) {
    guard state == .inactive else {
      throw AnimatorMisuse("the tracks of an active animation cannot be replaced")
    }
    tracks = TrackList(entries, timing: timing)
  }

  /// Keeps only `entries` of the tracks, in any state: the others' properties were taken by a
  /// later animation, and this one writes them no more.
  package mutating func keepTracks(_ entries: [TrackEntry]) {
    tracks = TrackList(entries, timing: timing)
  }

  /// Whether completions wait for the animation's end.
  package var hasCompletions: Bool { !completions.isEmpty }

  /// Adds a completion; it runs once, with the final position, when the animation ends.
  package mutating func addCompletion(_ completion: AnimationCompletion) {
    completions.append(completion)
  }

  /// Plays the animation `count` times (nil: forever); with `autoreverses`, each play goes
  /// there and back.
  package mutating func setRepeat(count: Int?, autoreverses: Bool) throws(AnimatorMisuse) {
    if let count, count < 1 {
      throw AnimatorMisuse("repeat count \(count) is less than 1")
    }
    repeatCount = count
    self.autoreverses = autoreverses
    if state != .inactive { traversalsLeft = initialTraversalsLeft }
  }

  /// Ends the animation at once at `position`, whatever it is doing: an active one is
  /// stopped and finished there (Dance's `finish(at:)`), a stopped one finished, an inactive
  /// one that never ran only hands its completions the position.
  package mutating func finishNow(at position: AnimatingPosition, now: Double) -> AnimationEffects {
    if state == .active, let effects = try? stop(withoutFinishing: false, at: now),
      effects.completedPosition != nil
    {
      return effects
    }
    if state == .stopped, let effects = try? finish(at: position) {
      return effects
    }
    var effects = AnimationEffects()
    effects.outcome = .completed(position, takeCompletions())
    return effects
  }

  /// Where a running animation's time line is a hair before and after `now`, and the seconds
  /// between: how fast every track moves at `now`. Nil when it does not move: not running,
  /// waiting out a start delay, or at the end of its segment.
  ///
  /// The samples straddle `now` (a central difference, whose error falls with the square of
  /// the step, here a millionth of the segment) and stay inside the segment: at its edges they
  /// shift into it, a one-sided difference over the same step.
  package func motion(at now: Double) -> (
    before: (fraction: Double, progress: Double), after: (fraction: Double, progress: Double),
    span: Double
  )? {
    guard state == .active, isRunning, startTime == nil, let segment, segment.length > 0
    else { return nil }
    let step = segment.length * 1e-6
    let end = segment.startTime + segment.length
    guard now < end else { return nil }
    let middle = min(max(now, segment.startTime + step), end - step)
    func sample(_ time: Double) -> (fraction: Double, progress: Double) {
      var copy = self
      copy.move(along: segment, to: (time - segment.startTime) / segment.length)
      return (copy.fractionComplete, copy.progress)
    }
    return (sample(middle - step), sample(middle + step), 2 * step)
  }

  // MARK: Internals

  /// The most traversals one advance begins: repeats shorter than the clock can resolve (an
  /// animation of 1e-300 s repeating for ever) would otherwise begin one after another at the
  /// same instant, for ever, inside one frame. Whole traversals that a frame spans are skipped
  /// in one go, so an animation that can be followed needs a handful at most.
  package static let maximumTraversalsPerAdvance = 1000

  private var initialTraversalsLeft: Int? {
    guard let repeatCount else { return nil }
    let (total, overflow) = repeatCount.multipliedReportingOverflow(by: autoreverses ? 2 : 1)
    return overflow ? nil : total - 1
  }

  private mutating func takeCompletions() -> [AnimationCompletion] {
    defer { completions = [] }
    return completions
  }

  /// Puts an animation that leaves the inactive state at its beginning.
  private mutating func rewind() {
    fractionComplete = isReversed ? 1 : 0
    progress = fractionComplete
    traversalsLeft = initialTraversalsLeft
    continuation = nil
    segment = nil
    startTime = nil
    pauseTime = nil
  }

  private mutating func freeze() {
    isRunning = false
    segment = nil
    startTime = nil
    pauseTime = nil
  }

  private mutating func begin(at time: Double) {
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

  private mutating func move(along segment: Segment, to elapsed: Double) {
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
  private mutating func repeatTraversal(endedAt end: Double, now: Double) {
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
