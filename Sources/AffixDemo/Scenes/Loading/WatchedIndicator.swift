import Affix
import AffixLoading
import AffixScheduling

/// Passes everything on to the indicator it shows, and remembers when it appeared, how often
/// it ticked and how it ended, so the scene can say what happened.
final class WatchedIndicator: LoadingIndicator, Sendable {
  /// One appearance of the indicator, in scene time.
  struct Showing: Sendable {
    var started: SchedulingInstant
    var appeared: SchedulingInstant
    var disappeared: SchedulingInstant
    var ticks: Int
    var outcome: LoadingOutcome
  }

  private struct State {
    var appearances = 0
    var started = SchedulingInstant.zero
    var current: Showing?
    var last: Showing?
  }

  private let shown: any LoadingIndicator & Sendable
  private let scheduler: any SchedulingClock
  private let state = LockedState(State())

  init(showing shown: any LoadingIndicator & Sendable, scheduler: any SchedulingClock) {
    self.shown = shown
    self.scheduler = scheduler
  }

  var appearances: Int { state.withLock { $0.appearances } }
  var lastShown: Showing? { state.withLock { $0.last } }

  /// Notes that work started now, so that the next appearance can say how long it waited.
  func noteStart() {
    let now = scheduler.now
    state.withLock { $0.started = now }
  }

  func appear(message: String?) {
    let now = scheduler.now
    state.withLock { state in
      state.appearances += 1
      state.current = Showing(
        started: state.started, appeared: now, disappeared: now, ticks: 0, outcome: .success)
    }
    shown.appear(message: message)
  }

  var wantsTicks: Bool { shown.wantsTicks }

  func tick(frame: Int, angle: Double) {
    state.withLock { $0.current?.ticks += 1 }
    shown.tick(frame: frame, angle: angle)
  }

  func update(message: String?) {
    shown.update(message: message)
  }

  func update(progress: Double?) {
    shown.update(progress: progress)
  }

  func disappear(outcome: LoadingOutcome) {
    let now = scheduler.now
    state.withLock { state in
      state.current?.disappeared = now
      state.current?.outcome = outcome
      state.last = state.current
      state.current = nil
    }
    shown.disappear(outcome: outcome)
  }
}
