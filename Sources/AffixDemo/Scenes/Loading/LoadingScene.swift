import Affix
import AffixLoading
import AffixScheduling

/// A spinner that appears only for slow work: a fast task shows nothing, a slow one shows the
/// spinner after the grace time and ends with a success line, a failure ends with a cross.
enum LoadingScene {
  static let options = LoadingOptions(
    graceTime: .milliseconds(400), minimumShowTime: .milliseconds(800))

  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("loading: a spinner only when work is slow")
    let indicator = WatchedIndicator(
      showing: TerminalSpinner(isTerminal: screen.mode == .ansi) { screen.raw($0) },
      scheduler: stage.scheduler)
    let resolver = PackageResolver(indicator: indicator, stage: stage)
    let loading = stage.perform { resolver.loadingController() }
    screen.step(
      "PackageResolver conforms to Loading: grace time 0.4 s, minimum show time 0.8 s, "
        + "a tick every 0.05 s.")

    screen.step("A fast task (0.1 s):")
    run(loading, watched: indicator, for: .milliseconds(100), on: stage)
    // Wait past the grace time, to show that nothing appears late either.
    stage.pause(.milliseconds(600))
    screen.detail(
      "ended before the grace time: nothing was shown (appeared \(indicator.appearances) times)")

    screen.step("A slow task (2 s):")
    run(loading, watched: indicator, for: .seconds(2), message: "Resolving packages", on: stage)
    if let shown = indicator.lastShown {
      screen.detail(
        "appeared after \(seconds(shown.appeared - shown.started)) s, ticked \(shown.ticks) "
          + "times, ended with \(shown.outcome)")
    }

    screen.step("A task that ends just after the spinner appears (0.5 s):")
    run(
      loading, watched: indicator, for: .milliseconds(500), message: "Checking for updates",
      on: stage)
    if let shown = indicator.lastShown {
      screen.detail(
        "work ended at 0.5 s, the spinner stayed until "
          + "\(seconds(shown.disappeared - shown.started)) s: the minimum show time, no flicker")
    }

    screen.step("A download that reports its progress (1.6 s), drawn as a bar:")
    run(
      loading, watched: indicator, for: .milliseconds(1_600), message: "Downloading artifacts",
      progressSteps: 8, on: stage)
    if let shown = indicator.lastShown {
      screen.detail(
        "determinate: loading.update(progress:) each 0.2 s, ended with \(shown.outcome)")
    }

    screen.step("A failing task (1.2 s):")
    run(
      loading, watched: indicator, for: .milliseconds(1_200), message: "Uploading artifacts",
      on: stage,
      outcome: .failure(MirrorError()))
    if let shown = indicator.lastShown {
      screen.detail("ended with \(shown.outcome)")
    }

    screen.step("One stop too many is a diagnostic, not a crash:")
    resolver.stopLoading()
    screen.detail("state: \(resolver.loadingState)")
  }

  /// Starts `loading`, reports `progressSteps` even steps of progress over `duration` (none:
  /// indeterminate), stops it `duration` later on the stage's queue (where the indicator's
  /// own timers fire, so they are ordered), and waits until the indicator is gone.
  private static func run(
    _ loading: LoadingController, watched indicator: WatchedIndicator, for duration: Duration,
    message: String? = nil, progressSteps: Int = 0,
    on stage: Stage, outcome: LoadingOutcome = .success
  ) {
    indicator.noteStart()
    loading.start(message: message)
    let progress = (0..<progressSteps).map { step in
      stage.scheduler.schedule(after: duration / progressSteps * step) {
        loading.update(progress: Double(step) / Double(progressSteps))
      }
    }
    let stop = stage.scheduler.schedule(after: duration) {
      if progressSteps > 0 { loading.update(progress: 1) }
      loading.stop(outcome)
    }
    stage.wait(upTo: duration + .seconds(5)) { !loading.state.isActive }
    withExtendedLifetime((progress, stop)) {}
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    let value = Double(whole) + Double(fraction) / 1e18
    return String((value * 10).rounded() / 10)
  }
}

/// The demo's failing upload.
struct MirrorError: Error, CustomStringConvertible {
  var description: String { "the mirror did not answer" }
}

/// A class we own that does slow work; conforming to Loading is all it takes.
final class PackageResolver: Loading, Sendable {
  private let indicator: WatchedIndicator
  private let stage: Stage

  init(indicator: WatchedIndicator, stage: Stage) {
    self.indicator = indicator
    self.stage = stage
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { stage.scheduler }
  var loadingOptions: LoadingOptions { LoadingScene.options }
}
