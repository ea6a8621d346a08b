// Every API that keeps its caller's non-Sendable state takes the caller's isolation as
// `isolated (any Actor)? = #isolation`. A `nonisolated(nonsending)` helper hands on the actor
// it runs on, known only at run time: these tests drive every mixin through such helpers, from
// an actor and from the main actor. Code outside any actor hands on `nil`: each API refuses it,
// with a report, and keeps nothing. Tests/Fixtures/must-compile/helpers-in-the-callers-
// isolation.swift compiles the helpers with and without NonisolatedNonsendingByDefault.
import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation
import Synchronization
import Testing

// MARK: - Helpers that run in their caller's isolation

/// The card's snap points: let go still at `fingerUp`, it snaps to the nearer, the second.
private let snapPoints = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)]
private let fingerUp = CGPoint(x: 80, y: 10)

nonisolated(nonsending) private func dim(_ lamp: Lamp) async {
  // Bound to a `let` before `start()`: Swift 6.3's region checker does not understand a call
  // chained on a non-Sendable result inside a nonsending function (see Docs/Concurrency.md).
  let dimming = lamp.dance.animate(duration: 1) { $0.brightness = 0 }
  dimming.start()
}

nonisolated(nonsending) private func pick(_ card: Card, in world: DynamicsWorld) async {
  card.makeDraggable(snapPoints: snapPoints, world: world).onRelease { _ in .snapToNearest }
  card.drag(.began(at: .zero))
  card.drag(.changed(to: fingerUp))
}

nonisolated(nonsending) private func load(_ importer: Importer, _ clock: VirtualClock) async {
  importer.startLoading(message: "Importing")
  clock.advanceOnAnotherThread(by: .milliseconds(400))
  importer.stopLoading()
}

nonisolated(nonsending) private func hover(_ button: Button) async {
  button.pointerEntered()
}

nonisolated(nonsending) private func watch(_ model: Model, into seen: Seen) async {
  let token = Associations(of: model).observe(Selection.self) { seen.values.append($0) }
  Associations(of: model)[Selection.self] = 7
  await Task.yield()
  token.cancel()
}

nonisolated(nonsending) private func call(into seen: Seen) async {
  let callback = IsolatedCallback<Int> { seen.values.append($0) }
  callback(3)
  await callback.delivered()
}

/// Awaits every mixin's wait in the caller's isolation, letting the card go on the way.
nonisolated(nonsending) private func settleEveryMixin(_ hosts: Hosts) async {
  _ = await hosts.lamp.dance.ended()
  hosts.card.drag(.ended(velocity: .zero))
  await hosts.card.dragController?.settled()
  await hosts.importer.loadingSettled()
  await hosts.button.tooltipSettled()
}

/// A `Sendable` model whose selection is observed.
private final class Model: Sendable {}

private enum Selection: AssociatedKey {
  static let defaultValue = 0
}

/// Non-`Sendable` state of its caller's isolation, written by observers and callbacks.
private final class Seen {
  var values: [Int] = []
}

/// The hosts of one test, on one clock, none of them `Sendable`.
private struct Hosts {
  let lamp: Lamp
  let card = Card()
  let importer: Importer
  let button: Button
  let world: DynamicsWorld
  let seen = Seen()

  init(clock: VirtualClock) {
    let frames = FrameSource(clock: clock, framesPerSecond: 60)
    lamp = Lamp(frames: frames)
    world = DynamicsWorld(frames: frames)
    importer = Importer(clock: clock)
    button = Button(clock: clock)
  }

  /// Starts every mixin through the helpers, in the caller's isolation.
  nonisolated(nonsending) func begin(_ clock: VirtualClock) async {
    await dim(lamp)
    await pick(card, in: world)
    await hover(button)
    await load(importer, clock)
    await watch(Model(), into: seen)
    await call(into: seen)
  }

  var outcome: Outcome {
    Outcome(
      brightness: lamp.brightness,
      cardRests: abs(card.center.x - 100) < 1 && abs(card.center.y) < 1,
      loading: importer.indicator.transitions, isTooltipShown: button.isTooltipShown,
      seen: seen.values)
  }
}

/// What the helpers left the hosts with.
private struct Outcome: Sendable, Equatable {
  var brightness: Double
  var cardRests: Bool
  var loading: [RecordingIndicator.Event]
  var isTooltipShown: Bool
  var seen: [Int]
}

private let expected = Outcome(
  brightness: 0, cardRests: true,
  loading: [.appear(message: "Importing"), .disappear(outcome: .success)],
  isTooltipShown: true, seen: [7, 3])

/// An actor that owns its hosts and drives them through the helpers.
private actor Studio {
  private let hosts: Hosts

  init(clock: VirtualClock) {
    hosts = Hosts(clock: clock)
  }

  func begin(_ clock: VirtualClock) async { await hosts.begin(clock) }
  func settle() async { await settleEveryMixin(hosts) }
  var outcome: Outcome { hosts.outcome }
  func end() { hosts.card.removeDraggable() }
}

// MARK: - Calls made outside any actor

/// Collects the reports made on this task.
private final class Reports: Sendable {
  private let entries = Mutex<[Diagnostic]>([])

  func record(_ diagnostic: Diagnostic) {
    entries.withLock { $0.append(diagnostic) }
  }

  var messages: [String] { entries.withLock { $0.map(\.message) } }

  /// The messages of the reports that refused a call made outside any actor.
  var refusals: [String] {
    entries.withLock { $0.map(\.message).filter { $0.contains("called outside any actor") } }
  }
}

private func refusals(_ body: () -> Void) -> [String] {
  let reports = Reports()
  Diagnostics.withHandler(reports.record, operation: body)
  return reports.refusals
}

@Suite(.timeLimit(.minutes(1))) struct CallersIsolationAtRunTimeTests {
  @Test func helpersRunTheMixinsOnTheActorThatCallsThem() async {
    let clock = VirtualClock()
    let studio = Studio(clock: clock)
    await studio.begin(clock)
    await whileTicking(clock) { await studio.settle() }
    #expect(await studio.outcome == expected)
    await studio.end()
  }

  @MainActor @Test func helpersRunTheMixinsOnTheMainActorThatCallsThem() async {
    let clock = VirtualClock()
    let hosts = Hosts(clock: clock)
    await hosts.begin(clock)
    await whileTicking(clock) { await settleEveryMixin(hosts) }
    #expect(hosts.outcome == expected)
    hosts.card.removeDraggable()
  }

  @Test func animateOutsideAnyActorIsRefusedAndAnimatesNothing() {
    let clock = VirtualClock()
    let lamp = Lamp(frames: FrameSource(clock: clock, framesPerSecond: 60))
    let refused = refusals {
      lamp.dance.animate(duration: 1) { $0.brightness = 0 }.start()
      lamp.dance.decay(\.brightness, velocity: 2).start()
    }
    clock.advance(by: .seconds(2))
    #expect(refused.count == 2)
    #expect(refused.first?.contains("animate ignored") == true)
    #expect(lamp.brightness == 1)
    #expect(!lamp.dance.isRunning)
  }

  @Test func makeDraggableOutsideAnyActorIsRefusedAndAttachesNothing() {
    let clock = VirtualClock()
    let world = DynamicsWorld(frames: FrameSource(clock: clock, framesPerSecond: 60))
    let card = Card()
    let refused = refusals {
      let controller = card.makeDraggable(world: world)
      controller.drag(.began(at: .zero))
      controller.drag(.changed(to: CGPoint(x: 50, y: 0)))
    }
    clock.advance(by: .seconds(1))
    #expect(refused == [CallerIsolation.refusal(of: "makeDraggable")])
    #expect(card.dragController == nil)
    #expect(card.center == .zero)
    #expect(world.bodyCount == 0)
  }

  @MainActor @Test func eventsFedFromATaskGroupAreRefusedAndMoveNothing() async {
    let clock = VirtualClock()
    let world = DynamicsWorld(frames: FrameSource(clock: clock, framesPerSecond: 60))
    let card = Card()
    let controller = card.makeDraggable(world: world)
    let reports = Reports()
    await Diagnostics.withHandler(reports.record) {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { controller.drag(.began(at: .zero)) }
      }
    }
    #expect(reports.messages.contains { $0.contains("feed them where it lives") })
    #expect(!controller.isDragging)
    #expect(card.center == .zero)
    card.removeDraggable()
  }

  @Test func startLoadingOutsideAnyActorIsRefusedAndCallsNoIndicator() {
    let clock = VirtualClock()
    let importer = Importer(clock: clock)
    let refused = refusals { importer.startLoading(message: "Importing") }
    clock.advance(by: .seconds(2))
    #expect(refused.count == 1)
    #expect(importer.indicator.transitions.isEmpty)
    #expect(LoadingController.attached(to: importer) == nil)
  }

  @Test func pointerEnteredOutsideAnyActorIsRefusedAndShowsNothing() {
    let clock = VirtualClock()
    let button = Button(clock: clock)
    let refused = refusals { button.pointerEntered() }
    clock.advance(by: .seconds(2))
    #expect(refused == [CallerIsolation.refusal(of: "pointerEntered")])
    #expect(!button.isTooltipShown)
    #expect(button.tooltip == nil)
  }

  @Test func observeOutsideAnyActorIsRefusedAndNeverCalled() {
    let model = Model()
    let seen = Seen()
    var token: CancellationToken?
    let refused = refusals {
      token = Associations(of: model).observe(Selection.self) { seen.values.append($0) }
      Associations(of: model)[Selection.self] = 1
    }
    #expect(refused == [CallerIsolation.refusal(of: "observe")])
    #expect(token?.isCancelled == true)
    #expect(seen.values.isEmpty)
  }

  @Test func anIsolatedCallbackMadeOutsideAnyActorNeverRuns() {
    let seen = Seen()
    let refused = refusals {
      let callback = IsolatedCallback<Int> { seen.values.append($0) }
      callback(1)
    }
    #expect(refused == [CallerIsolation.refusal(of: "IsolatedCallback(isolation:)")])
    #expect(seen.values.isEmpty)
  }

  @Test func anIsolationBoundMadeOutsideAnyActorHoldsNothing() async {
    let refused = refusals { _ = IsolationBound(Seen()) }
    #expect(refused == [CallerIsolation.refusal(of: "IsolationBound(_:)")])
    let bound = await Task { @MainActor in IsolationBound(Seen()) }.value
    let unbound = Diagnostics.withHandler({ _ in }, operation: { IsolationBound(Seen()) })
    #expect(unbound.isolation !== MainActor.shared)
    #expect(await Task { @MainActor in unbound.value() == nil }.value)
    #expect(await Task { @MainActor in bound.value() != nil }.value)
  }
}
