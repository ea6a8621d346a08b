import Affix
import AffixScheduling
import AffixTooltip

/// A view with a tooltip, on virtual time.
final class Button: Tooltipped {
  var isTooltipShown = false
  let time: VirtualTime
  let timing: TooltipTiming

  init(time: VirtualTime, timing: TooltipTiming = .standard) {
    self.time = time
    self.timing = timing
  }

  var tooltipClock: any SchedulingClock { time }
  var tooltipTiming: TooltipTiming { timing }
}

@MainActor func tooltipCases() -> [BadInputCase] {
  var list = CaseList("AffixTooltip")
  let durations = Inputs.durations
  let tenSeconds = Duration.seconds(10)

  /// Enters, waits ten seconds, leaves, waits ten seconds: shown and hidden as the delays say.
  func hover(_ timing: TooltipTiming, _ probe: Probe) {
    let time = VirtualTime()
    let button = Button(time: time, timing: timing)
    button.pointerEntered()
    time.advance(by: tenSeconds)
    let tooltip = button.tooltip
    probe.consistent(
      tooltip?.isShown == button.isTooltipShown, "the controller and the view disagree")
    probe.consistent(
      button.isTooltipShown == (timing.showDelay <= tenSeconds),
      "shown: \(button.isTooltipShown) after 10 s with \(timing)")
    let wasShown = button.isTooltipShown
    button.pointerExited()
    time.advance(by: tenSeconds)
    probe.consistent(
      button.isTooltipShown == (wasShown && timing.hideDelay > tenSeconds),
      "shown: \(button.isTooltipShown) 10 s after leaving with \(timing)")
    probe.consistent(
      tooltip?.isShown == button.isTooltipShown, "the controller and the view disagree")
    probe.consistent(
      tooltip?.isPending == (wasShown && timing.hideDelay > tenSeconds),
      "pending: \(String(describing: tooltip?.isPending))")
  }

  list.add(
    "TooltipTiming.init(showDelay:hideDelay:).showDelay", durations, kind: timedClass,
    reportFor: [.negative]
  ) {
    probe, delay in hover(TooltipTiming(showDelay: delay), probe)
  }
  list.add(
    "TooltipTiming.init(showDelay:hideDelay:).hideDelay", durations, kind: timedClass,
    reportFor: [.negative]
  ) {
    probe, delay in hover(TooltipTiming(hideDelay: delay), probe)
  }
  list.add(
    "TooltipTiming.showDelay", Inputs.someDurations, kind: timedClass, reportFor: [.negative],
    report: .required
  ) {
    probe, delay in
    var timing = TooltipTiming.standard
    timing.showDelay = delay
    hover(timing, probe)
  }
  list.add(
    "TooltipTiming.hideDelay", Inputs.someDurations, kind: timedClass, reportFor: [.negative],
    report: .required
  ) {
    probe, delay in
    var timing = TooltipTiming.standard
    timing.hideDelay = delay
    hover(timing, probe)
  }

  func controller() -> (TooltipController, VirtualTime, Box<[Bool]>) {
    let time = VirtualTime()
    let shown = Box<[Bool]>([])
    let host = Button(time: time)
    let controller = TooltipController.attach(to: host, clock: time) { _, isShown in
      shown.update { $0.append(isShown) }
    }
    retained.append(host)
    return (controller, time, shown)
  }
  list.add(
    "TooltipController.pointerExited()", "withoutEnter", .wrongState, report: .atCaller
  ) { probe in
    let (tooltip, time, shown) = controller()
    tooltip.pointerExited()
    time.advance(by: .seconds(1))
    probe.consistent(
      !tooltip.isShown && !tooltip.isPending && shown.now.isEmpty,
      "an exit without enter changed state")
  }
  list.add(
    "TooltipController.pointerEntered()", "twice", .wrongState, report: .atCaller
  ) { probe in
    let (tooltip, time, shown) = controller()
    tooltip.pointerEntered()
    tooltip.pointerEntered()
    time.advance(by: .seconds(1))
    probe.consistent(tooltip.isShown && shown.now == [true], "shown \(shown.now)")
    tooltip.pointerExited()
    time.advance(by: .seconds(1))
    probe.consistent(!tooltip.isShown && shown.now == [true, false], "shown \(shown.now)")
  }
  list.add("TooltipController.dismiss()", "whenHidden", .wrongState) { probe in
    let (tooltip, time, shown) = controller()
    tooltip.dismiss()
    tooltip.dismiss()
    time.advance(by: .seconds(1))
    probe.consistent(
      !tooltip.isShown && shown.now.isEmpty, "a dismiss when hidden showed \(shown.now)")
  }
  list.add("TooltipController.dismiss()", "thenExitAndEnter", .wrongState) { probe in
    let (tooltip, time, shown) = controller()
    tooltip.pointerEntered()
    time.advance(by: .seconds(1))
    tooltip.dismiss()
    tooltip.pointerExited()
    tooltip.pointerEntered()
    time.advance(by: .seconds(1))
    probe.consistent(
      tooltip.isShown == (shown.now.last ?? false),
      "the view heard \(shown.now), the controller says \(tooltip.isShown)")
  }
  list.add("TooltipController.pointerEntered()", "afterHostDied", .deadHost) { probe in
    let time = VirtualTime()
    let shown = Box<[Bool]>([])
    var host: Button? = Button(time: time)
    let tooltip = TooltipController.attach(to: host!, clock: time) { _, isShown in
      shown.update { $0.append(isShown) }
    }
    host = nil
    AssociationTable.sweep()
    tooltip.pointerEntered()
    time.advance(by: .seconds(1))
    probe.consistent(shown.now.isEmpty, "a dead host's tooltip was shown: \(shown.now)")
    tooltip.pointerExited()
    tooltip.dismiss()
  }
  list.add("TooltipController.pointerExited()", "hostDiedWhileShown", .deadHost) {
    probe in
    let time = VirtualTime()
    var host: Button? = Button(time: time)
    host!.pointerEntered()
    time.advance(by: .seconds(1))
    let tooltip = host!.tooltip
    host = nil
    AssociationTable.sweep()
    tooltip?.pointerExited()
    time.advance(by: .seconds(1))
    probe.consistent(tooltip?.isPending != true, "a dead host's tooltip is still pending")
  }
  for (label, host) in bridgedHosts() {
    list.add(
      "TooltipController.attach(to:timing:clock:show:)", label, .refusedHost,
      report: .required
    ) { probe in
      let time = VirtualTime()
      let shown = Box<[Bool]>([])
      let tooltip = TooltipController.attach(to: host(), clock: time) { _, isShown in
        shown.update { $0.append(isShown) }
      }
      tooltip.pointerEntered()
      time.advance(by: .seconds(1))
      probe.consistent(
        tooltip.isShown == (shown.now.last ?? false),
        "the view heard \(shown.now), the controller says \(tooltip.isShown)")
      tooltip.pointerExited()
      time.advance(by: .seconds(1))
      probe.consistent(!tooltip.isShown && !tooltip.isPending, "shown after leaving")
    }
  }
  list.add("TooltipController.init(timing:clock:)", Inputs.someDurations, kind: timedClass) {
    probe, delay in
    let time = VirtualTime()
    var timing = TooltipTiming.standard
    timing.showDelay = delay
    timing.hideDelay = delay
    let tooltip = TooltipController(timing: timing, clock: time)
    tooltip.pointerEntered()
    time.advance(by: .seconds(1))
    tooltip.pointerExited()
    time.advance(by: .seconds(1))
    probe.consistent(!tooltip.isShown || delay > .seconds(1), "a tooltip with no host is shown")
  }

  return list.cases
}

/// Hosts kept alive until the case's process ends.
@MainActor var retained: [AnyObject] = []
