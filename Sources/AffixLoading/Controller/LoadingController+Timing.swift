import Affix
import AffixScheduling

/// The controller's work on the clock: the appearance and the hiding it schedules, and the
/// ticks of a visible indicator. Each runs one transition of the state machine and performs
/// its actions after unlocking.
extension LoadingController {
  /// What a scheduled step does when it is due.
  enum Step {
    case appear
    case hide
  }

  /// Schedules the appearance or the hiding `id` after `delay`, and keeps its token unless the
  /// step was disowned meanwhile.
  func schedule(_ step: Step, step id: UInt64, after delay: Duration) {
    let token = clock.schedule(after: delay) { [weak self] in
      switch step {
      case .appear: self?.appear(step: id)
      case .hide: self?.hide(step: id)
      }
    }
    storage.withLock { $0.scheduled(token, step: id) }?.cancel()
  }

  private func appear(step: UInt64) {
    guard isHostAlive else { return shutDown() }
    let now = clock.now
    let wantsTicks = channel.wantsTicks
    let shown = storage.change(of: self) {
      $0.appear(step: step, now: now, wantsTicks: wantsTicks)
    }
    guard let shown else { return }
    channel.call { indicator in
      indicator.appear(message: shown.message)
      if let progress = shown.progress { indicator.update(progress: progress) }
    }
    // An indicator that wants no ticks and follows no `Progress` costs no timer.
    if shown.ticks { startTicking(session: shown.session) }
  }

  /// Ticks the visible period `session` at the tick interval, unless it is over or ticks.
  func startTicking(session: UInt64) {
    let ticks = try? clock.scheduleRepeating(every: options.tickInterval) { [weak self] in
      self?.tick(session: session)
    }
    storage.withLock { $0.ticking(ticks, session: session) }?.cancel()
  }

  private func tick(session: UInt64) {
    guard isHostAlive else { return shutDown() }
    guard let ticked = storage.withLock({ $0.tick(session: session) }) else { return }
    if let followed = ticked.followed { update(progress: Self.fraction(of: followed.progress)) }
    guard channel.wantsTicks else { return }
    let turn = 2 * Double.pi
    // The step taken within one turn first: a huge finite angle per tick times the frame
    // would overflow to infinity, whose remainder is NaN.
    let step = options.anglePerTick.truncatingRemainder(dividingBy: turn)
    var angle = (Double(ticked.frame) * step).truncatingRemainder(dividingBy: turn)
    if angle < 0 { angle += turn }
    let turned = angle
    channel.send(IndicatorUpdate(tick: (ticked.frame, turned)))
  }

  private func hide(step: UInt64) {
    guard isHostAlive else { return shutDown() }
    guard let ending = storage.change(of: self, { $0.hide(step: step) }) else { return }
    for token in ending.tokens { token.cancel() }
    channel.call { [storage] indicator in
      indicator.disappear(outcome: ending.outcome)
      storage.lastCallDrawn()
    }
  }

  /// The host died: stop all work, and take a visible indicator away, as a detach does.
  private func shutDown() {
    didEnd(.hostDied)
  }
}
