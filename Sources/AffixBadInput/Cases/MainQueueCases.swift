import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation

/// A view with a tooltip timed on the main queue.
final class MainQueueButton: Tooltipped {
  var isTooltipShown = false
  let timing: TooltipTiming
  init(timing: TooltipTiming) { self.timing = timing }
  var tooltipClock: any SchedulingClock { QueueTime.main }
  var tooltipTiming: TooltipTiming { timing }
}

/// Waits `milliseconds` of real time on the main actor, letting the main queue run: only for
/// what must not happen within it (a deadline past Dispatch's range firing at once).
@MainActor func letTheMainQueueRun(milliseconds: Int) async {
  try? await Task.sleep(for: .milliseconds(milliseconds))
}

/// Delays too long to pass on the real main queue, and frame rates at their extremes.
@MainActor func mainQueueCases() -> [BadInputCase] {
  var list = CaseList("AffixScheduling")
  let long = Inputs.durations.filter { $0.family == .huge }

  list.add("DispatchClock.main.schedule(after:_:)", long, kind: always(.lostValue)) {
    probe, delay in
    let fired = Count()
    let token = QueueTime.main.schedule(after: delay) { fired.bump() }
    await letTheMainQueueRun(milliseconds: 50)
    probe.consistent(fired.now == 0, "an action \(delay) away ran at once on the main queue")
    token.cancel()
  }
  var tooltips = CaseList("AffixTooltip")
  tooltips.add("TooltipTiming.showDelay.mainQueue", long, kind: always(.lostValue)) {
    probe, delay in
    let button = MainQueueButton(timing: TooltipTiming(showDelay: delay))
    button.pointerEntered()
    await letTheMainQueueRun(milliseconds: 50)
    probe.consistent(!button.isTooltipShown, "a tooltip \(delay) away showed at once")
    button.pointerExited()
  }
  var loading = CaseList("AffixLoading")
  loading.add("LoadingOptions.graceTime.mainQueue", long, kind: always(.lostValue)) {
    probe, grace in
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: QueueTime.main, options: LoadingOptions(graceTime: grace))
    controller.start()
    await letTheMainQueueRun(milliseconds: 50)
    probe.consistent(!indicator.isShown, "an indicator \(grace) away showed at once")
    controller.stop()
    await letTheMainQueueRun(milliseconds: 10)
    probe.consistent(controller.state == .idle, "state \(controller.state) after stop")
  }
  loading.add("LoadingOptions.minimumShowTime.mainQueue", long, kind: always(.crash)) {
    probe, minimum in
    let indicator = RecordingIndicator()
    let controller = LoadingController(
      indicator: indicator, clock: QueueTime.main,
      options: LoadingOptions(graceTime: .zero, minimumShowTime: minimum))
    controller.start()
    await letTheMainQueueRun(milliseconds: 20)
    controller.stop()
    await letTheMainQueueRun(milliseconds: 20)
    probe.consistent(
      controller.state.isVisible == indicator.isShown,
      "state \(controller.state), shown \(indicator.isShown)")
  }

  // Frame rates at their extremes carry an animation and a drag to their ends.
  let rates = Inputs.ints + [Input("1001", 1001, .huge), Input("1e9", 1_000_000_000, .huge)]
  var dancing = CaseList("AffixDancing")
  dancing.add("Dance.of(_:frames:).framesPerSecond", rates, kind: always(.hang)) {
    probe, rate in
    let stage = Stage(framesPerSecond: rate)
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    watch(dance, sprite, on: stage, seconds: 2, probe)
    probe.kept(sprite.x == 100, "x is \(sprite.x) after the animation at \(rate) frames a second")
  }
  var dragging = CaseList("AffixDraggable")
  dragging.add(
    "DynamicsWorld.init(frames:timeStep:restThreshold:maximumAdvance:).framesPerSecond",
    rates, kind: always(.hang)
  ) {
    probe, rate in
    let stage = Stage(framesPerSecond: rate)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 200, y: 0)))
    controller.drag(.ended(velocity: CGPoint(x: 500, y: 0)))
    watch(card, world: world, on: stage, seconds: 10, probe)
  }
  return list.cases + tooltips.cases + loading.cases + dancing.cases + dragging.cases
}
