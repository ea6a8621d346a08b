// The sound uses of Tests/Fixtures/must-compile/waits-in-the-callers-isolation.swift, awaited
// from the main actor and from two actors at once while their clock ticks on another thread:
// every public wait of the library runs in its caller's isolation, over hosts and state none of
// which is Sendable.
import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTesting
import AffixTooltip
import Foundation
import Synchronization
import Testing

private final class Tally {
  var count = 0
}

/// One caller's hosts and state, on a clock the caller shares with the others.
private final class Hosts {
  let clock: VirtualClock
  let lamp: Lamp
  let card = Card()
  let importer: Importer
  let button: Button
  let world: DynamicsWorld
  let tally = Tally()

  init(clock: VirtualClock) {
    let frames = FrameSource(clock: clock, framesPerSecond: 60)
    self.clock = clock
    lamp = Lamp(frames: frames)
    importer = Importer(clock: clock)
    button = Button(clock: clock)
    world = DynamicsWorld(frames: frames)
  }
}

/// What the waits returned, and what the hosts and state were left with.
private struct Summary: Sendable, Equatable {
  var ended: AnimatingPosition?
  var endedAgain: AnimatingPosition?
  var brightness = 0.0
  var center = CGPoint.zero
  var loading: [RecordingIndicator.Event] = []
  var isTooltipShown = false
  var runIsRunning = true
  var waited = 0
  var resumed = 0
  var diagnostics = 0
  var count = 0
}

/// The card's snap point: flung towards it, it rests there.
private let snapPoint = CGPoint(x: 100, y: 0)

/// Awaits every public wait in `isolation`, the caller's, with work for each to wait for, made
/// in the same isolation and ticked by the clock's thread: the body of the fixture's main-actor
/// function and of its actor's method, which run it in their own isolation.
private func awaitEveryWait(
  _ hosts: Hosts, isolation: isolated any Actor = #isolation
) async -> Summary {
  let (lamp, card, importer, button, tally) = (
    hosts.lamp, hosts.card, hosts.importer, hosts.button, hosts.tally
  )
  var summary = Summary()
  let dance = lamp.dance.animate(duration: 1) { $0.brightness = 0 }.start()
  summary.ended = await dance.ended()
  summary.endedAgain = await lamp.dance.ended()
  card.makeDraggable(snapPoint: snapPoint, world: hosts.world)
  card.drag(.began(at: .zero))
  card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
  await card.dragController?.settled()
  await card.dragController?.body.settled()
  importer.startLoading()
  await yield(until: { importer.indicator.isShown })
  importer.stopLoading()
  await importer.loadingSettled()
  await importer.loadingController().settled()
  button.pointerEntered()
  await button.tooltipSettled()
  await button.tooltip?.settled()
  let run = ScheduledRun()
  run.start { id in hosts.clock.schedule(after: .milliseconds(100)) { run.finish(id) } }
  await run.finished()
  summary.runIsRunning = run.isRunning
  // The fixture's wait, ended already; then one that another thread ends.
  let waiters = Waiters<Int>()
  summary.waited = await waiters.wait(ifCancelled: 0) { tally.count }
  let done = Flag()
  let resumer = Task.detached {
    done.raise()
    waiters.resumeAll(returning: 7)
  }
  summary.resumed = await waiters.wait(ifCancelled: 0) { done.isRaised ? 7 : nil }
  await resumer.value
  // Ten calls from another thread, queued here.
  let callback = IsolatedCallback<Int> { tally.count += $0 }
  await Task.detached { for _ in 0..<10 { callback(1) } }.value
  await callback.delivered()
  let diagnostics = Atomic<Int>(0)
  let kept = await Diagnostics.withHandler(
    { _ in diagnostics.add(1, ordering: .relaxed) },
    operation: {
      await Task.yield()
      importer.stopLoading()  // nothing loads: reported to this handler
      tally.count += 1
      return Tally()
    })
  summary.diagnostics = diagnostics.load(ordering: .relaxed)
  kept.count += tally.count
  let loaded = await withLoading(indicator: RecordingIndicator(), clock: hosts.clock) { _ in
    tally.count += 1
    return Tally()
  }
  loaded.count += 1
  let checked = await expectNoLeaks { tracker in
    let scratch = Tally()
    tracker.track(scratch)
    await Task.yield()
    tally.count += 1
    return Tally()
  }
  checked.count += 1
  let waited = await expectNoLeaks(waitingUpTo: .seconds(1)) { tracker in
    let scratch = Tally()
    tracker.track(scratch)
    tally.count += 1
    return Tally()
  }
  waited.count += lamp.brightness > 0 ? 1 : 0
  summary.brightness = lamp.brightness
  summary.center = card.center
  summary.loading = importer.indicator.transitions
  summary.isTooltipShown = button.isTooltipShown
  summary.count = tally.count + kept.count + loaded.count + checked.count + waited.count
  card.removeDraggable()
  return summary
}

private actor Studio {
  private let hosts: Hosts

  init(clock: VirtualClock) {
    hosts = Hosts(clock: clock)
  }

  func awaitEveryWait() async -> Summary {
    await SoundUsesTests.awaitEveryWait(hosts)
  }
}

@MainActor @Suite(.timeLimit(.minutes(1))) struct WaitsInTheCallersIsolationTests {
  /// The main actor and two actors await every wait at once, each over its own hosts, while
  /// the clock they share ticks on another thread: each wait returns once its work is done and
  /// written to the caller's hosts, and each caller ends with the same summary.
  @Test func everyWaitAwaitedFromTheMainActorAndTwoActorsAtOnce() async {
    let clock = VirtualClock()
    let hosts = Hosts(clock: clock)
    let studios = (0..<2).map { _ in Studio(clock: clock) }
    let summaries = await whileTicking(clock) {
      async let first = studios[0].awaitEveryWait()
      async let second = studios[1].awaitEveryWait()
      let here = await awaitEveryWait(hosts)
      return [here, await first, await second]
    }
    // The tally: ten callback calls, then one for each scoped wait but the first; the kept
    // objects add it again, plus 1 + 1 + 0 (a dark lamp).
    let tally = 10 + 4
    let expected = Summary(
      ended: .end, endedAgain: nil, brightness: 0, center: snapPoint,
      loading: [.appear(message: nil), .disappear(outcome: .success)], isTooltipShown: true,
      runIsRunning: false, waited: 0, resumed: 7, diagnostics: 1,
      count: tally + (tally - 3) + 1 + 1 + 0)
    for summary in summaries {
      var rounded = summary
      rounded.center = CGPoint(x: summary.center.x.rounded(), y: summary.center.y.rounded())
      #expect(rounded == expected)
    }
    #expect(summaries.count == 3)
  }
}
