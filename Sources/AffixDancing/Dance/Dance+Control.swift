// Every call here reads or writes the host (its start values, its values at a scrub, a pause
// or an end), so each takes its caller's isolation and runs only in the host's: see
// `Dancer.admits`.
extension Dance {
  /// Starts (or resumes) the animation.
  @discardableResult
  public func start(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("start", from: isolation, fileID, line, readingStart: .keepingVelocity) {
      engine, now throws(AnimatorMisuse) in try engine.start(at: now)
    }
  }

  /// Starts (or resumes) the animation after `delay` seconds; the animation is running (and
  /// holds still) meanwhile. A delay that is negative or not finite is reported and taken as
  /// zero: the animation starts now.
  @discardableResult
  public func start(
    after delay: Double, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let delay = usableDelay(delay, of: "start(after:)", fileID, line)
    return control(
      "start(after:)", from: isolation, fileID, line,
      readingStart: delay == 0 ? .keepingVelocity : .values
    ) { engine, now throws(AnimatorMisuse) in try engine.start(at: now, after: delay) }
  }

  /// Pauses the animation where it is; an animation not started yet becomes active and
  /// paused at its start.
  @discardableResult
  public func pause(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("pause", from: isolation, fileID, line, readingStart: .values) {
      engine, now throws(AnimatorMisuse) in try engine.pause(at: now)
    }
  }

  /// Pauses the running animation `delay` seconds from now. A delay that is negative or not
  /// finite is reported and taken as zero: the animation pauses now.
  @discardableResult
  public func pause(
    after delay: Double, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let delay = usableDelay(delay, of: "pause(after:)", fileID, line)
    return control("pause(after:)", from: isolation, fileID, line) {
      engine, now throws(AnimatorMisuse) in
      try engine.pause(at: now, after: delay)
    }
  }

  /// Turns the animation round: a running one heads back where it is, a paused one will when
  /// started.
  @discardableResult
  public func reverse(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("reverse", from: isolation, fileID, line) { engine, now throws(AnimatorMisuse) in
      try engine.setReversed(!engine.isReversed, at: now)
    }
  }

  /// Scrubs the animation to `progress` (in `0...1`), pausing it first if it runs or has not
  /// started. Values outside `0...1` are reported and clamped; non-finite ones are reported
  /// and ignored. Any floating-point type works.
  @discardableResult
  public func setProgress(
    to progress: some BinaryFloatingPoint, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    guard dancer.admits(isolation, "setProgress", group: group, at: site) else { return self }
    var fraction = Double(progress)
    guard fraction.isFinite else {
      dancer.report(
        "setProgress ignored: progress \(fraction) is not finite", group: group, at: site)
      return self
    }
    if !(0...1).contains(fraction) {
      dancer.report(
        "setProgress: progress \(fraction) is outside 0...1; clamped", group: group, at: site)
      fraction = min(max(fraction, 0), 1)
    }
    dancer.readStartValues(group: group)
    dancer.perform(
      "setProgress", group: group, at: site
    ) { engine, now throws(AnimatorMisuse) in
      var effects = AnimationEffects()
      if engine.isRunning {
        effects = try engine.pause(at: now)
        guard engine.state == .active else { return effects }
      }
      return try engine.setFractionComplete(fraction)
    }
    return self
  }

  /// Ends the animation now at `position`, running its completions with it: the start
  /// values, the end values, or the values it shows now. Valid while the animation is active
  /// or stopped; anything chained after it is dropped.
  @discardableResult
  public func finish(
    at position: AnimatingPosition, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("finish(at:)", from: isolation, fileID, line, chaining: false) {
      engine, now throws(AnimatorMisuse) in
      guard engine.state != .inactive else {
        throw AnimatorMisuse("the animation has not started")
      }
      return engine.finishNow(at: position, now: now)
    }
  }

  /// Stops the animation. Without finishing, it ends where it is and its completions never
  /// run; otherwise it is stopped, frozen where it is, until `finish(at:)`.
  @discardableResult
  public func stop(
    withoutFinishing: Bool = false, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("stop", from: isolation, fileID, line, chaining: false) {
      engine, now throws(AnimatorMisuse) in
      try engine.stop(withoutFinishing: withoutFinishing, at: now)
    }
  }

  /// Runs the rest of the animation with new timing parameters, over a multiple of the
  /// remaining time.
  ///
  /// A paused animation resumes.
  ///
  /// - Parameters:
  ///   - timingParameters: The timing of the rest of the animation; nil keeps the current ones.
  ///   - durationFactor: The rest lasts `durationFactor` times the remaining time.
  ///   - isolation: Where the host lives; the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: This handle, for chaining.
  @discardableResult
  public func continueAnimation(
    timingParameters: TimingParameters? = nil, durationFactor: Double = 1,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    control("continueAnimation", from: isolation, fileID, line) {
      engine, now throws(AnimatorMisuse) in
      try engine.continueAnimation(
        timing: timingParameters, durationFactor: durationFactor, at: now)
    }
  }

  /// What a control call reads from the host before it changes the animation.
  private enum StartValues {
    /// The start values, as the animation becomes active.
    case values
    /// The start values, and the velocities taken from moving groups: it starts now.
    case keepingVelocity
  }

  /// `delay`, or zero, reported at the caller's line, when it is negative or not finite: the
  /// rule for numbers (the nearest usable value), so the call still does what it says.
  private func usableDelay(_ delay: Double, of call: String, _ fileID: String, _ line: Int)
    -> Double
  {
    guard !(delay.isFinite && delay >= 0) else { return delay }
    dancer.report(
      "\(call): a delay must be a finite number of seconds >= 0, not \(delay); using 0",
      group: group, at: CallSite(fileID: fileID, line: line))
    return 0
  }

  /// A control call: refused unless `caller` is the host's isolation (see `Dancer.admits`),
  /// then the start values read when asked, then `body` run on the group's animation.
  private func control(
    _ call: String, from caller: (any Actor)?, _ fileID: String, _ line: Int,
    readingStart: StartValues? = nil, chaining: Bool = true,
    _ body: (inout AnimationEngine, Double) throws(AnimatorMisuse) -> AnimationEffects
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    guard dancer.admits(caller, call, group: group, at: site) else { return self }
    if let readingStart {
      dancer.readStartValues(group: group, keepingVelocity: readingStart == .keepingVelocity)
    }
    dancer.perform(call, group: group, at: site, chaining: chaining, body)
    return self
  }
}
