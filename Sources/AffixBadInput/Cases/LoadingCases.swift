import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import Foundation

/// A host that shows loading on virtual time.
final class Document: Loading {
  let time: VirtualTime
  let indicator: RecordingIndicator
  let options: LoadingOptions

  init(time: VirtualTime, options: LoadingOptions = .standard, ticks: Bool = false) {
    self.time = time
    self.options = options
    indicator = RecordingIndicator(wantsTicks: ticks)
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { time }
  var loadingOptions: LoadingOptions { options }
}

/// The loading state and the indicator must agree, and the indicator must have heard only
/// finite figures.
@MainActor func checkLoading(
  _ controller: LoadingController, _ indicator: RecordingIndicator, _ probe: Probe
) {
  probe.consistent(
    controller.state.isVisible == indicator.isShown,
    "state \(controller.state) but the indicator is \(indicator.isShown ? "shown" : "hidden")")
  if let progress = controller.progress {
    probe.consistent(progress.isWithin(0...1), "progress \(progress)")
  }
  for event in indicator.events {
    switch event {
    case .tick(_, let angle):
      probe.finite(angle, "a tick's angle")
      probe.consistent(angle.isWithin(-7...7), "a tick's angle \(angle) is not wrapped to a turn")
    case .progress(let progress?):
      probe.consistent(progress.isWithin(0...1), "the indicator heard a progress of \(progress)")
    default: break
    }
  }
  let appears = indicator.transitions.count { if case .appear = $0 { true } else { false } }
  let disappears = indicator.transitions.count { if case .disappear = $0 { true } else { false } }
  probe.consistent(
    appears == disappears || appears == disappears + 1, "\(appears) appear, \(disappears) disappear"
  )
}

@MainActor func loadingCases() -> [BadInputCase] {
  var list = CaseList("AffixLoading")
  let durations = Inputs.durations

  /// Starts, runs a second, stops, runs ten seconds: the whole life of one piece of work.
  func cycle(_ options: LoadingOptions, _ probe: Probe, ticks: Bool = false) -> LoadingController {
    let time = VirtualTime()
    let indicator = RecordingIndicator(wantsTicks: ticks)
    let controller = LoadingController(indicator: indicator, clock: time, options: options)
    controller.start(message: "work")
    time.advance(by: .seconds(1))
    checkLoading(controller, indicator, probe)
    controller.stop()
    checkLoading(controller, indicator, probe)
    time.advance(by: .seconds(10))
    checkLoading(controller, indicator, probe)
    probe.consistent(
      !controller.isLoading && controller.nestingDepth == 0, "still loading after stop")
    probe.consistent(indicator.tickCount <= 11_001, "\(indicator.tickCount) ticks in 11 s")
    return controller
  }

  list.add(
    "LoadingOptions.graceTime", durations, kind: timedClass, reportFor: [.negative],
    report: .required
  ) {
    probe, grace in
    let controller = cycle(LoadingOptions(graceTime: grace), probe)
    if grace > .seconds(1) {
      probe.consistent(
        controller.state == .idle, "work shorter than its grace time left \(controller.state)")
    }
  }
  list.add(
    "LoadingOptions.minimumShowTime", durations, kind: timedClass, reportFor: [.negative],
    report: .required
  ) {
    probe, minimum in _ = cycle(LoadingOptions(graceTime: .zero, minimumShowTime: minimum), probe)
  }
  list.add(
    "LoadingOptions.tickInterval", durations, kind: timedClass,
    reportFor: [.negative, .zero, .tiny], report: .required
  ) {
    probe, interval in
    _ = cycle(LoadingOptions(graceTime: .zero, tickInterval: interval), probe, ticks: true)
  }
  list.add(
    "LoadingOptions.anglePerTick", Inputs.doubles, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) {
    probe, angle in
    _ = cycle(LoadingOptions(graceTime: .zero, anglePerTick: angle), probe, ticks: true)
  }
  list.add("LoadingOptions.vars", Inputs.someDurations, kind: timedClass) { probe, duration in
    var options = LoadingOptions.standard
    options.graceTime = duration
    options.minimumShowTime = duration
    options.tickInterval = duration
    _ = cycle(options, probe, ticks: true)
  }

  list.add(
    "LoadingController.update(progress:)", Inputs.doubles, kind: numericClass,
    reportFor: [.nonFinite]
  ) {
    probe, fraction in
    let time = VirtualTime()
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: time, options: .init(graceTime: .zero))
    controller.start()
    time.advance(by: .milliseconds(10))
    controller.update(progress: 0.5)
    controller.update(progress: fraction)
    time.advance(by: .milliseconds(10))
    if fraction.isFinite {
      probe.kept(
        controller.progress == min(max(fraction, 0), 1),
        "progress \(String(describing: controller.progress)) for \(fraction)")
    } else {
      probe.kept(controller.progress == 0.5, "a refused progress replaced the last one")
    }
    checkLoading(controller, indicator, probe)
    controller.stop()
  }

  // Calls with nothing loading.
  func idle() -> (LoadingController, RecordingIndicator) {
    let indicator = RecordingIndicator()
    return (LoadingController(indicator: indicator, clock: VirtualTime()), indicator)
  }
  list.add("LoadingController.stop(_:)", "withoutStart", .wrongState, report: .atCaller) { probe in
    let (controller, indicator) = idle()
    controller.stop(.failure(CancellationError()))
    probe.consistent(
      controller.state == .idle && controller.nestingDepth == 0, "state \(controller.state)")
    checkLoading(controller, indicator, probe)
  }
  list.add(
    "LoadingController.stop(_:)", "moreThanStarts", .wrongState, report: .atCaller
  ) { probe in
    let (controller, indicator) = idle()
    controller.start()
    controller.stop()
    controller.stop()
    probe.consistent(controller.nestingDepth == 0, "depth \(controller.nestingDepth)")
    controller.start()
    probe.consistent(
      controller.nestingDepth == 1,
      "a start after an extra stop left depth \(controller.nestingDepth)")
    controller.stop()
    checkLoading(controller, indicator, probe)
  }
  list.add(
    "LoadingController.update(progress:)", "withoutStart", .wrongState,
    report: .atCaller
  ) { probe in
    let (controller, _) = idle()
    controller.update(progress: 0.5)
    probe.consistent(controller.progress == nil, "progress kept with nothing loading")
  }
  list.add(
    "LoadingController.update(message:)", "withoutStart", .wrongState, report: .atCaller
  ) { probe in
    let (controller, _) = idle()
    controller.update(message: "late")
    probe.consistent(controller.message == nil, "message kept with nothing loading")
  }
  list.add(
    "LoadingController.follow(_:)", "withoutStart", .wrongState, report: .atCaller
  ) { probe in
    let (controller, _) = idle()
    controller.follow(Progress(totalUnitCount: 10))
    probe.consistent(controller.progress == nil, "progress with nothing loading")
  }
  for (label, total, done) in [
    ("zeroTotal", Int64(0), Int64(0)), ("negativeTotal", -5, 3), ("overDone", 10, 1_000),
    ("negativeDone", 10, -4), ("Int64.max", .max, .max / 2), ("Int64.min", .min, .min),
  ] {
    list.add("LoadingController.follow(_:)", label, .nonFinite) { probe in
      let time = VirtualTime()
      let indicator = RecordingIndicator()
      let controller = LoadingController(
        indicator: indicator, clock: time, options: .init(graceTime: .zero))
      controller.start()
      let progress = Progress(totalUnitCount: total)
      progress.completedUnitCount = done
      controller.follow(progress)
      time.advance(by: .seconds(1))
      checkLoading(controller, indicator, probe)
      controller.stop()
      time.advance(by: .seconds(1))
      checkLoading(controller, indicator, probe)
    }
  }

  list.add("LoadingController.start(message:)", "whileFinishing", .wrongState) {
    probe in
    let time = VirtualTime()
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: time,
      options: .init(graceTime: .zero, minimumShowTime: .seconds(1)))
    controller.start(message: "first")
    time.advance(by: .milliseconds(100))
    controller.update(progress: 0.7)
    controller.stop(.failure(CancellationError()))
    controller.start(message: "second")
    probe.consistent(
      controller.progress == nil && controller.message == "second",
      "new work kept the old progress or message")
    probe.consistent(
      controller.outcome == .success, "new work kept the old outcome \(controller.outcome)")
    time.advance(by: .seconds(2))
    checkLoading(controller, indicator, probe)
    controller.stop()
    time.advance(by: .seconds(2))
    probe.consistent(
      controller.state == .idle && !indicator.isShown,
      "state \(controller.state) after the last stop")
  }
  list.add("LoadingController.stop(_:)", "whilePending", .wrongState) { probe in
    let time = VirtualTime()
    let indicator = RecordingIndicator()
    let controller = LoadingController(indicator: indicator, clock: time)
    controller.start()
    controller.start()
    controller.stop(.failure(CancellationError()))
    controller.stop()
    time.advance(by: .seconds(5))
    probe.consistent(
      controller.state == .idle && indicator.transitions.isEmpty,
      "work shorter than its grace time was shown: \(indicator.transitions)")
  }
  list.add(
    "LoadingController.start(message:)", "afterHostDied", .deadHost, report: .atCaller
  ) { probe in
    let time = VirtualTime()
    let indicator = RecordingIndicator()
    var host: Document? = Document(time: time)
    let controller = LoadingController.attach(to: host!, indicator: indicator, clock: time)
    host = nil
    AssociationTable.sweep()
    controller.start()
    time.advance(by: .seconds(1))
    probe.consistent(!indicator.isShown, "shown for a dead host")
    checkLoading(controller, indicator, probe)
  }
  list.add("LoadingController.stop(_:)", "hostDiedWhileShown", .deadHost) { probe in
    let time = VirtualTime()
    var host: Document? = Document(time: time, options: .init(graceTime: .zero))
    let indicator = host!.indicator
    host!.startLoading()
    time.advance(by: .seconds(1))
    let controller = LoadingController.attached(to: host!)
    host = nil
    AssociationTable.sweep()
    time.advance(by: .seconds(1))
    controller?.stop()
    time.advance(by: .seconds(1))
    probe.consistent(!indicator.isShown, "the indicator of a dead host is still shown")
  }
  for (label, host) in bridgedHosts() {
    list.add(
      "LoadingController.attach(to:indicator:clock:options:)", label,
      .refusedHost,
      report: .required
    ) {
      probe in
      let time = VirtualTime()
      let indicator = RecordingIndicator()
      let controller = LoadingController.attach(to: host(), indicator: indicator, clock: time)
      controller.start()
      time.advance(by: .seconds(1))
      checkLoading(controller, indicator, probe)
      controller.stop()
      time.advance(by: .seconds(1))
      checkLoading(controller, indicator, probe)
    }
  }

  list.add(
    "Loading.updateLoading(progress:)", Inputs.someDoubles, kind: numericClass,
    reportFor: [.nonFinite]
  ) {
    probe, fraction in
    let time = VirtualTime()
    let host = Document(time: time, options: .init(graceTime: .zero))
    host.startLoading()
    time.advance(by: .milliseconds(10))
    host.updateLoading(progress: fraction)
    time.advance(by: .milliseconds(10))
    if let controller = LoadingController.attached(to: host) {
      checkLoading(controller, host.indicator, probe)
    }
    host.stopLoading()
  }
  list.add("Loading.stopLoading(_:)", "withoutStart", .wrongState, report: .atCaller) {
    probe in
    let host = Document(time: VirtualTime())
    host.stopLoading()
    probe.consistent(!host.isLoading, "loading after a stop without start")
  }
  list.add(
    "Loading.updateLoading(message:)", "withoutStart", .wrongState, report: .atCaller
  ) { probe in
    let host = Document(time: VirtualTime())
    host.updateLoading(message: "late")
    probe.consistent(!host.isLoading, "loading after an update without start")
  }

  list.add(
    "withLoading(message:indicator:clock:options:_:)", Inputs.someDurations,
    kind: timedClass
  ) {
    probe, duration in
    let time = VirtualTime()
    let indicator = RecordingIndicator()
    let options = LoadingOptions(
      graceTime: duration, minimumShowTime: duration, tickInterval: duration)
    let value = await withLoading(indicator: indicator, clock: time, options: options) { _ in 42
    }
    probe.kept(value == 42, "the work's result was lost")
    time.advance(by: .seconds(1))
  }

  // The terminal spinner: any frame, any angle, any progress, any width.
  func spinner(frames: [String] = TerminalSpinner.defaultFrames, columns: Int? = nil) -> (
    TerminalSpinner, Box<String>
  ) {
    let written = Box("")
    let spinner = TerminalSpinner(
      isTerminal: true, frames: frames, columns: { columns },
      write: { text in written.update { $0 += text } })
    return (spinner, written)
  }
  list.add("TerminalSpinner.tick(frame:angle:).frame", Inputs.ints, kind: always(.crash)) {
    probe, frame in
    let (spinner, written) = spinner()
    spinner.appear(message: "work")
    spinner.tick(frame: frame, angle: 0)
    probe.consistent(
      TerminalSpinner.defaultFrames.contains { written.now.contains($0) }, "no frame drawn")
  }
  list.add("TerminalSpinner.tick(frame:angle:).angle", Inputs.doubles, kind: always(.crash)) {
    probe, angle in
    let (spinner, written) = spinner()
    spinner.appear(message: "work")
    spinner.tick(frame: 3, angle: angle)
    probe.consistent(!written.now.isEmpty, "nothing drawn")
  }
  list.add("TerminalSpinner.update(progress:)", Inputs.doubles, kind: numericClass) {
    probe, fraction in
    let (spinner, written) = spinner()
    spinner.appear(message: "work")
    spinner.update(progress: fraction)
    spinner.tick(frame: 1, angle: 0)
    let text = written.now.lowercased()
    probe.consistent(
      !text.contains("nan") && !text.contains("inf"), "drew \(written.now.debugDescription)")
  }
  list.add(
    "TerminalSpinner.init(isTerminal:frames:columns:write:).columns", Inputs.ints,
    kind: always(.crash)
  ) {
    probe, columns in
    let (spinner, written) = spinner(columns: columns)
    spinner.appear(message: String(repeating: "long message ", count: 40))
    spinner.update(progress: 0.5)
    spinner.tick(frame: 2, angle: 1)
    spinner.disappear(outcome: .success)
    probe.consistent(!written.now.isEmpty, "nothing drawn")
  }
  for (label, frames) in [("noFrames", [String]()), ("emptyFrame", [""]), ("oneFrame", ["*"])] {
    list.add("TerminalSpinner.init(isTerminal:frames:columns:write:).frames", label, .crash) {
      probe in
      let (spinner, written) = spinner(frames: frames)
      spinner.appear(message: "work")
      for frame in [0, 1, -1, Int.max, Int.min] { spinner.tick(frame: frame, angle: 0) }
      spinner.disappear(outcome: .cancelled)
      probe.consistent(written.now.contains("work"), "the message was never drawn")
    }
  }
  list.add("TerminalSpinner.disappear(outcome:)", "withoutAppear", .wrongState) { probe in
    let (spinner, written) = spinner()
    spinner.disappear(outcome: .success)
    spinner.update(progress: 0.5)
    spinner.update(message: "late")
    spinner.tick(frame: 1, angle: 0)
    probe.consistent(!written.now.contains("late"), "a spinner never shown drew an update")
  }

  return list.cases
}
