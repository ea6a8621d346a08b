import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation

/// Awaits `wait` in a task, cancels it once it has had the chance to suspend, and awaits the
/// task: a wait that ignores its cancellation is a hang, which the runner's timer counts.
@MainActor func cancelled(_ wait: @escaping @MainActor () async -> Void) async {
  let task = Task { @MainActor in await wait() }
  for _ in 0..<20 { await Task.yield() }
  task.cancel()
  await task.value
}

/// The waits of every module, in states where they must return: idle, cancelled, or with the
/// host gone.
@MainActor func waitCases() -> [BadInputCase] {
  var loading = CaseList("AffixLoading")
  let forever = Duration.seconds(Int64.max)

  loading.add("LoadingController.settled()", "idle", .hang) { probe in
    let controller = LoadingController(indicator: RecordingIndicator(), clock: VirtualTime())
    await controller.settled()
    probe.consistent(!controller.isLoading, "an idle controller is loading after settled()")
  }
  loading.add("LoadingController.settled()", "cancelledWhilePendingForever", .hang) { probe in
    let controller = LoadingController(
      indicator: RecordingIndicator(), clock: VirtualTime(),
      options: LoadingOptions(graceTime: forever))
    controller.start()
    await cancelled { await controller.settled() }
    probe.consistent(controller.isLoading, "a cancelled wait stopped the work it waited for")
  }
  loading.add("LoadingController.settled()", "hostDiedWhileShown", .deadHost) { probe in
    let time = VirtualTime()
    var host: Document? = Document(
      time: time, options: .init(graceTime: .zero, minimumShowTime: forever))
    host!.startLoading()
    time.advance(by: .seconds(1))
    let controller = LoadingController.attached(to: host!)
    host = nil
    AssociationTable.sweep()
    time.advance(by: .seconds(1))
    await cancelled { await controller?.settled() }
    probe.consistent(controller?.isLoading != true, "a dead host's controller is still loading")
  }
  loading.add("Loading.loadingSettled()", "neverStarted", .hang) { probe in
    let document = Document(time: VirtualTime())
    await document.loadingSettled()
    probe.consistent(!document.isLoading, "a document never started is loading")
  }

  var tooltip = CaseList("AffixTooltip")
  tooltip.add("TooltipController.settled()", "idle", .hang) { probe in
    let tooltip = TooltipController(clock: VirtualTime())
    await tooltip.settled()
    probe.consistent(!tooltip.isShown && !tooltip.isPending, "an idle tooltip is busy")
  }
  tooltip.add("TooltipController.settled()", "cancelledWhilePendingForever", .hang) { probe in
    let tooltip = TooltipController(
      timing: TooltipTiming(showDelay: forever), clock: VirtualTime())
    tooltip.pointerEntered()
    await cancelled { await tooltip.settled() }
    probe.consistent(
      tooltip.isPending && !tooltip.isShown, "a show pending for ever is no longer pending")
  }
  tooltip.add("Tooltipped.tooltipSettled()", "hostDiedWhilePending", .deadHost) { probe in
    let time = VirtualTime()
    var button: Button? = Button(time: time, timing: TooltipTiming(showDelay: .seconds(1)))
    button!.pointerEntered()
    let tooltip = button!.tooltip
    button = nil
    AssociationTable.sweep()
    time.advance(by: .seconds(2))
    await cancelled { await tooltip?.settled() }
    probe.consistent(tooltip?.isShown != true, "a dead host's tooltip is shown")
  }

  var dancing = CaseList("AffixDancing")
  dancing.add("Dance.ended()", "cancelledWhileRunning", .hang) { probe in
    let stage = Stage()
    // Held: a sprite made in place would die, and its animation end, before the wait.
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1e9) { $0.x = 1 }.start()
    await cancelled { _ = await dance.ended() }
    probe.consistent(dance.hasAnimation, "a cancelled wait ended the animation it waited for")
    dance.stop(withoutFinishing: true)
    probe.consistent(!dance.isRunning, "stopped, it still runs")
    withExtendedLifetime(sprite) {}
  }
  dancing.add("Dance.ended()", "hostDiedWhileRunning", .deadHost) { probe in
    let stage = Stage()
    var sprite: Sprite? = Sprite()
    let dance = stage.dance(sprite!).animate(duration: 1) { $0.x = 1 }.start()
    stage.advance(milliseconds: 100)
    sprite = nil
    AssociationTable.sweep()
    stage.advance(milliseconds: 100)
    await cancelled { _ = await dance.ended() }
    probe.consistent(!dance.isRunning, "a dead host's animation runs")
  }

  var dragging = CaseList("AffixDraggable")
  dragging.add("DragController.settled()", "cancelledWhileHeld", .hang) { probe in
    let stage = Stage(framesPerSecond: 60)
    let card = Card()
    let controller = card.makeDraggable(world: stage.world())
    controller.drag(.began(at: .zero))
    await cancelled { await controller.settled() }
    probe.consistent(controller.isDragging, "a cancelled wait let go of the card")
  }
  dragging.add("DragController.settled()", "hostDiedWhileHeld", .deadHost) { probe in
    let stage = Stage(framesPerSecond: 60)
    var card: Card? = Card()
    let controller = card!.makeDraggable(world: stage.world())
    controller.drag(.began(at: .zero))
    card = nil
    AssociationTable.sweep()
    controller.drag(.changed(to: CGPoint(x: 5, y: 5)))
    stage.advance(milliseconds: 100)
    await cancelled { await controller.settled() }
    probe.consistent(controller.body.isRemoved, "a dead card's body is still in the world")
  }
  dragging.add("DynamicBody.settled()", "removed", .hang) { probe in
    let world = makeUnclockedWorld()
    let body = world.makeBody(at: .zero)
    body.velocity = CGPoint(x: 100, y: 0)
    body.remove()
    await body.settled()
    probe.consistent(body.isRemoved, "a removed body is back")
  }
  dragging.add("DynamicBody.settled()", "cancelledInAWorldNeverAdvanced", .hang) { probe in
    let world = makeUnclockedWorld()
    let body = world.makeBody(at: .zero)
    body.snap(Snap(to: CGPoint(x: 100, y: 0)))
    await cancelled { await body.settled() }
    probe.consistent(body.position == .zero, "a world never advanced moved its body")
  }

  var scheduling = CaseList("AffixScheduling")
  scheduling.add("ScheduledRun.finished()", "idle", .hang) { probe in
    let run = ScheduledRun()
    await run.finished()
    probe.consistent(!run.isRunning, "an idle run is running")
  }
  scheduling.add("ScheduledRun.finished()", "cancelledWhileRunning", .hang) { probe in
    let run = ScheduledRun()
    _ = run.start { _ in nil }
    await cancelled { await run.finished() }
    probe.consistent(run.isRunning, "a cancelled wait ended the run it waited for")
  }
  scheduling.add("Waiters.wait(ifCancelled:unlessEnded:)", "cancelled", .hang) { probe in
    let waiters = Waiters<Int>()
    let result = Box(0)
    await cancelled { result.set(await waiters.wait(ifCancelled: -1, unlessEnded: { nil })) }
    probe.consistent(result.now == -1, "a cancelled wait returned \(result.now)")
  }
  scheduling.add("Waiters.wait(ifCancelled:unlessEnded:)", "ended", .hang) { probe in
    let value = await Waiters<Int>().wait(ifCancelled: -1, unlessEnded: { 7 })
    probe.kept(value == 7, "an ended wait returned \(value)")
  }
  scheduling.add("VirtualClock.waitForSleepers(_:)", "cancelled", .hang) { probe in
    let time = VirtualTime()
    await cancelled { try? await time.waitForSleepers(3) }
    probe.consistent(time.pendingCount == 0, "a cancelled wait left \(time.pendingCount) actions")
  }
  return loading.cases + tooltip.cases + dancing.cases + dragging.cases + scheduling.cases
}
