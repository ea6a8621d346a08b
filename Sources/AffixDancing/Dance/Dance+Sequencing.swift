extension Dance {
  /// Plays the last declared animation `count` times before it completes; with
  /// `autoreverses`, each play goes there and back (and it completes at its start).
  @discardableResult
  public func repeating(count: Int, autoreverses: Bool = false) -> Dance<Host> {
    setRepeat(count: count, autoreverses: autoreverses, call: "repeating(count:)")
  }

  /// Plays the last declared animation until it is paused, stopped or finished.
  @discardableResult
  public func repeatingForever(autoreverses: Bool = false) -> Dance<Host> {
    setRepeat(count: nil, autoreverses: autoreverses, call: "repeatingForever")
  }

  /// Queues an animation to start as soon as the last declared one reaches its end (with no
  /// animation, it starts now). Finishing, stopping or replacing the current animation drops
  /// the queue.
  ///
  /// ```swift
  /// box.dance.animate(duration: 1) { $0.x = 100 }
  ///   .then(duration: 0.5, curve: .easeOut) { $0.y = 50 }
  ///   .start()
  /// ```
  @discardableResult
  public func then(
    duration: Double, curve: TimingCurve = .easeInOut,
    _ animations: @escaping @Sendable (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    then(duration: duration, timingParameters: .curve(curve), animations)
  }

  /// Queues an animation with any timing parameters after the last declared one.
  @discardableResult
  public func then(
    duration: Double, timingParameters: TimingParameters,
    _ animations: @escaping @Sendable (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    var duration = duration
    if !duration.isFinite || duration < 0 {
      dancer.report("then: duration \(duration) is not a finite number of seconds >= 0; using 0")
      duration = 0
    }
    dancer.chain(
      Dancer.ChainLink(duration: duration, timing: timingParameters) { object in
        guard let host = object as? Host else { return [] }
        return TrackRecorder.record(host, animations)
      })
    return self
  }

  /// Waits until the current animation (and those chained after it) has ended, and returns
  /// where: `nil` if there was no animation, it was stopped without finishing, or the host
  /// died.
  ///
  /// ```swift
  /// let position = await box.dance.animate(duration: 1) { $0.x = 100 }.start().ended()
  /// ```
  @discardableResult
  public func ended() async -> AnimatingPosition? {
    await dancer.ended()
  }

  private func setRepeat(count: Int?, autoreverses: Bool, call: String) -> Dance<Host> {
    if let count, count < 1 {
      dancer.report("\(call) ignored: count \(count) is less than 1")
      return self
    }
    dancer.changeLatest(call) { engine throws(AnimatorMisuse) in
      try engine.setRepeat(count: count, autoreverses: autoreverses)
    } link: { link in
      link.repeatCount = count
      link.autoreverses = autoreverses
    }
    return self
  }
}
