import AffixLoading
import AffixScheduling
import Dispatch

/// `affix-bench loading`: what the indicators of main-actor views keep waiting for a busy main
/// actor, however fast the work reports.
@MainActor enum LoadingBenchmark {
  static let viewCount = 1_000
  /// Ticks of every indicator, and updates of its progress and message, while the main actor
  /// is held.
  static let rounds = 600

  /// A main-actor view that loads on virtual time and shows at once.
  @MainActor private final class View: @MainActor Loading {
    let scheduler: VirtualClock
    init(scheduler: VirtualClock) { self.scheduler = scheduler }
    func makeLoadingIndicator() -> any LoadingIndicator { Spinner() }
    var loadingClock: any SchedulingClock { scheduler }
    var loadingOptions: LoadingOptions { LoadingOptions(graceTime: .zero, minimumShowTime: .zero) }
  }

  /// An indicator that wants ticks and draws nothing.
  @MainActor private final class Spinner: @MainActor LoadingIndicator {
    var wantsTicks: Bool { true }
    func appear(message: String?) {}
    func disappear(outcome: LoadingOutcome) {}
  }

  static func run() {
    report("loading.ns_per_update", nanosecondsPerUpdate(), "ns", digits: 1)
    let (waiting, nanoseconds) = waitingCallsPeak()
    report("loading.waiting_calls_peak", Double(waiting), "calls", digits: 0)
    // Each view's appearance and one update, whatever the rate: the bound.
    report("loading.waiting_calls_bound", Double(2 * viewCount), "calls", digits: 0)
    report("loading.ns_per_update_waiting", nanoseconds, "ns", digits: 1)
  }

  /// Nanoseconds per `update(progress:)` of a visible main-actor indicator, made on the main
  /// actor: the indicator is handed each one at once. Best of five rounds.
  static func nanosecondsPerUpdate() -> Double {
    let scheduler = VirtualClock()
    let view = View(scheduler: scheduler)
    let controller = view.loadingController()
    view.startLoading(message: "Working")
    scheduler.advance(by: .zero)
    let updates = 100_000
    let best = nanosecondsPerOperation(operations: updates, rounds: 5) {
      for update in 0..<updates { controller.update(progress: Double(update) / Double(updates)) }
    }
    view.stopLoading()
    return best
  }

  /// The calls that waited at once for `viewCount` main-actor indicators, summed, while this
  /// thread held the main actor and another ticked each of them `rounds` times and updated
  /// its progress and message as often; and the nanoseconds per update of that thread.
  static func waitingCallsPeak() -> (peak: Int, nanosecondsPerUpdate: Double) {
    let scheduler = VirtualClock()
    let views = (0..<viewCount).map { _ in View(scheduler: scheduler) }
    let controllers = views.map { $0.loadingController() }
    for view in views { view.startLoading(message: "Working") }
    let interval = LoadingOptions().tickInterval
    let messages = (0..<rounds).map { "Step \($0)" }
    // This thread holds the main actor: every call to an indicator waits for it.
    let elapsed = DispatchQueue.global().sync {
      ContinuousClock().measure {
        for round in 0..<rounds {
          scheduler.advance(by: interval)
          for controller in controllers {
            controller.update(progress: Double(round) / Double(rounds))
            controller.update(message: messages[round])
          }
        }
      }
    }
    let peak = controllers.reduce(0) { $0 + $1.indicatorBacklog.peak }
    for view in views { view.stopLoading() }
    return (peak, elapsed / .nanoseconds(1) / Double(2 * rounds * viewCount))
  }
}
