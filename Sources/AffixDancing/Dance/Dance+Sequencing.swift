import AffixScheduling

extension Dance {
  /// Plays the last declared animation `count` times before it completes.
  ///
  /// With `autoreverses`, each play goes there and back (and it completes at its start).
  ///
  /// - Parameters:
  ///   - count: How many times it plays.
  ///   - autoreverses: Whether each play goes there and back.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: This handle, for chaining.
  @discardableResult
  public func repeating(
    count: Int, autoreverses: Bool = false, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    setRepeat(
      count: count, autoreverses: autoreverses, call: "repeating(count:)",
      at: CallSite(fileID: fileID, line: line))
  }

  /// Plays the last declared animation until it is paused, stopped or finished.
  ///
  /// It never reaches its end: its completions run only when it is finished, stopped or
  /// replaced, and animations chained after it never start. The running animation holds them
  /// until then, so capture the host weakly in them (`[weak self]`), or the host and its clock
  /// stay alive for good. Starting one that has completions or chained animations is reported
  /// once through `Diagnostics`, since whether a closure captures the host cannot be seen.
  @discardableResult
  public func repeatingForever(
    autoreverses: Bool = false, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    setRepeat(
      count: nil, autoreverses: autoreverses, call: "repeatingForever",
      at: CallSite(fileID: fileID, line: line))
  }

  /// Queues an animation to start as soon as the last declared one of the group reaches its
  /// end (with no animation, it starts now, as a group of its own). Finishing, stopping or
  /// replacing the current animation drops the queue. The chained animation belongs to the
  /// same group: the handle keeps addressing it.
  ///
  /// ```swift
  /// box.dance.animate(duration: 1) { $0.x = 100 }
  ///   .then(duration: 0.5, curve: .easeOut) { $0.y = 50 }
  ///   .start()
  /// ```
  @discardableResult
  public func then(
    duration: Double, curve: TimingCurve = .easeInOut,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ animations: @escaping (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    then(
      duration: duration, timingParameters: .curve(curve), isolation: isolation, fileID: fileID,
      line: line, animations)
  }

  /// Queues an animation with any timing parameters after the last declared one.
  ///
  /// The block runs when the chained animation starts, in the isolation it was written in (see
  /// `addCompletion(_:)`): a main-actor host's block runs on the main
  /// actor.
  @discardableResult
  public func then(
    duration: Double, timingParameters: TimingParameters,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ animations: @escaping (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    var duration = duration
    if !duration.isFinite || duration < 0 {
      dancer.report(
        "then: duration \(duration) is not a finite number of seconds >= 0; using 0",
        group: group, at: site)
      duration = 0
    }
    let begin = IsolatedCallback<(Dancer, Int, Dancer.ChainLink.Settings)>(
      isolation: isolation
    ) { dancer, group, settings in
      guard let host = dancer.host.object as? Host else { return dancer.hostDied() }
      dancer.install(
        settings, tracks: TrackRecorder.record(host, at: site, animations), group: group,
        on: host)
    }
    let chained = dancer.chain(
      Dancer.ChainLink(
        settings: Dancer.ChainLink.Settings(duration: duration, timing: timingParameters),
        begin: begin), group: group, at: site)
    return chained.map { Dance(dancer: dancer, group: .id($0)) } ?? self
  }

  /// Waits until the current animation (and those chained after it) has ended, and returns
  /// where.
  ///
  /// It returns `nil` if there was no animation, it was stopped without finishing, the host
  /// died (noticed at the latest when its values are released, even while the animation is
  /// paused, stopped or not started), or the waiting task was cancelled. After an end, it
  /// returns once the animation's completions have run where they were written, on the host's
  /// actor too.
  ///
  /// It waits in the caller's isolation, so that on the main actor nothing ends between
  /// `start()` and the wait: `start().ended()` never misses the end of a short animation.
  ///
  /// ```swift
  /// let position = await box.dance.animate(duration: 1) { $0.x = 100 }.start().ended()
  /// ```
  ///
  /// - Returns: Where the animation ended; `nil` in the cases above.
  @discardableResult
  public nonisolated(nonsending) func ended() async -> AnimatingPosition? {
    await dancer.ended(group: group)
  }

  private func setRepeat(count: Int?, autoreverses: Bool, call: String, at site: CallSite)
    -> Dance<Host>
  {
    if let count, count < 1 {
      dancer.report("\(call) ignored: count \(count) is less than 1", group: group, at: site)
      return self
    }
    dancer.changeLatest(call, group: group, at: site) { engine throws(AnimatorMisuse) in
      try engine.setRepeat(count: count, autoreverses: autoreverses)
    } link: { link in
      link.settings.repeatCount = count
      link.settings.autoreverses = autoreverses
    }
    return self
  }
}
