/// The calls that control the animation: start, pause, stop, finish, scrub, reverse, and
/// the tracks and completions they act on.
extension AnimationEngine {
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
}
