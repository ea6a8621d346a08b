// The sound uses of Tests/Fixtures/must-compile/built-in-mixins-on-an-actor.swift, with their
// clocks ticking on another thread: the same hosts, none of them Sendable, driven from the main
// actor and from actors that own them, while other tasks call those actors.
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation
import Testing

/// The hosts of one test, on one clock: the lamp's frames, the card's world, the importer's
/// indicator and the button's tooltip all tick on it.
private struct Hosts {
  let lamp: Lamp
  let card = Card()
  let importer: Importer
  let button: Button
  let world: DynamicsWorld

  /// Hosts with the standard delays, or with every delay of the loading and the tooltip
  /// `delays` long.
  init(clock: any SchedulingClock, delays: Duration? = nil) {
    let frames = FrameSource(clock: clock, framesPerSecond: 60)
    lamp = Lamp(frames: frames)
    importer = Importer(
      clock: clock,
      options: delays.map { LoadingOptions(graceTime: $0, minimumShowTime: $0) } ?? .standard)
    button = Button(
      clock: clock,
      timing: delays.map { TooltipTiming(showDelay: $0, hideDelay: $0) } ?? .standard)
    world = DynamicsWorld(frames: frames)
  }
}

/// The card's snap points: let go still at `fingerUp`, it snaps to the nearer, the second.
private let snapPoints = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)]
private let fingerUp = CGPoint(x: 80, y: 10)

@MainActor private func drive(_ hosts: Hosts) {
  let (lamp, card, importer, button) = (hosts.lamp, hosts.card, hosts.importer, hosts.button)
  lamp.dance.animate(duration: 1) { $0.brightness = 0 }.addCompletion { _ in
    lamp.brightness = 1
  }.start()
  card.makeDraggable(snapPoints: snapPoints, world: hosts.world).onRelease { _ in .snapToNearest }
  card.drag(.began(at: .zero))
  card.drag(.changed(to: fingerUp))
  importer.startLoading(message: "Importing")
  button.pointerEntered()
}

private actor Workshop {
  private let lamp: Lamp
  private var dimmed = 0

  init(frames: FrameSource) {
    lamp = Lamp(frames: frames)
  }

  func dim() {
    lamp.dance.animate(duration: 1) { $0.brightness = 0 }.addCompletion { _ in
      self.dimmed += 1
    }.start()
  }

  /// How many dims have completed, once the lamp's dance has ended, and its brightness.
  func ended() async -> (dimmed: Int, brightness: Double) {
    _ = await lamp.dance.ended()
    return (dimmed, lamp.brightness)
  }

  var count: Int { dimmed }
}

/// The waits take the caller's isolation: an actor awaits its own hosts, none of them
/// `Sendable`, without sending them anywhere.
private actor Studio {
  private let hosts: Hosts

  init(clock: VirtualClock) {
    hosts = Hosts(clock: clock)
  }

  /// Starts every mixin on the studio's hosts, then lets the clock run past the loading's
  /// grace time on another thread, and stops the loading and lets the card go at once: the
  /// indicator's appearance and the card's move, queued on this actor by the clock's thread,
  /// run after them.
  func begin(clock: VirtualClock) {
    hosts.lamp.dance.animate(duration: 1) { $0.brightness = 0 }.start()
    hosts.card.makeDraggable(snapPoints: snapPoints, world: hosts.world)
    hosts.card.drag(.began(at: .zero))
    hosts.card.drag(.changed(to: fingerUp))
    hosts.importer.startLoading(message: "Importing")
    hosts.button.pointerEntered()
    clock.advanceOnAnotherThread(by: .milliseconds(400))
    hosts.importer.stopLoading()
    // The card's body followed the finger on that thread; its move to the host waits here.
    hosts.card.drag(.ended(velocity: .zero))
  }

  func settle() async {
    _ = await hosts.lamp.dance.ended()
    await hosts.card.dragController?.settled()
    await hosts.importer.loadingSettled()
    await hosts.importer.loadingController().settled()
    await hosts.button.tooltipSettled()
  }

  var outcome: Outcome { Outcome(hosts) }
}

/// What the mixins left their hosts with.
private struct Outcome: Sendable, Equatable {
  var brightness: Double
  var center: CGPoint
  var loading: [RecordingIndicator.Event]
  var isTooltipShown: Bool

  init(_ hosts: Hosts) {
    brightness = hosts.lamp.brightness
    center = hosts.card.center
    loading = hosts.importer.indicator.transitions
    isTooltipShown = hosts.button.isTooltipShown
  }

  /// Whether the card rests on `point`, within the world's rest distance.
  func cardRests(on point: CGPoint) -> Bool {
    abs(center.x - point.x) < 1 && abs(center.y - point.y) < 1
  }
}

@Suite(.timeLimit(.minutes(1))) struct BuiltInMixinsOnAnActorTests {
  /// Every mixin driven on the main actor, its clock ticking on another thread, and every
  /// mixin's wait awaited there: each host ends as its mixin says.
  @MainActor @Test func theMixinsDrivenOnTheMainActorWhileTheirClockTicksElsewhere() async {
    let clock = VirtualClock()
    let hosts = Hosts(clock: clock)
    drive(hosts)
    await whileTicking(clock) { await settle(hosts) }
    expectEachMixinsOutcome(hosts)
  }

  /// The same on a real clock: a Dispatch queue of its own, whose timers and frames fire on its
  /// thread while the main actor drives and awaits the hosts.
  @MainActor @Test func theMixinsDrivenOnTheMainActorWhileADispatchQueueTicks() async {
    let clock = DispatchClock(queue: DispatchQueue(label: "frames and timers"))
    let hosts = Hosts(clock: clock, delays: .milliseconds(20))
    drive(hosts)
    await settle(hosts)
    expectEachMixinsOutcome(hosts)
  }

  /// Lets the card go once it is under the finger, the loading stop once its indicator shows,
  /// and awaits every mixin.
  @MainActor private func settle(_ hosts: Hosts) async {
    _ = await hosts.lamp.dance.ended()
    await yield(until: { hosts.card.center == fingerUp })
    hosts.card.drag(.ended(velocity: .zero))
    await hosts.card.dragController?.settled()
    await yield(until: { hosts.importer.indicator.isShown })
    hosts.importer.stopLoading()
    await hosts.importer.loadingSettled()
    await hosts.button.tooltipSettled()
  }

  @MainActor private func expectEachMixinsOutcome(_ hosts: Hosts) {
    let outcome = Outcome(hosts)
    #expect(outcome.brightness == 1, "the completion, on the main actor, lit the lamp again")
    #expect(outcome.cardRests(on: snapPoints[1]))
    #expect(outcome.loading == [.appear(message: "Importing"), .disappear(outcome: .success)])
    #expect(outcome.isTooltipShown)
    hosts.card.removeDraggable()
  }

  /// Workshops dim their own lamps inside their actors while the frames tick on another thread
  /// and other tasks ask the same actors for their counts: each completion runs once, on its
  /// workshop.
  @Test func actorsDimTheirOwnLampsWhileOtherTasksCallThem() async {
    let clock = VirtualClock()
    let frames = FrameSource(clock: clock, framesPerSecond: 60)
    let workshops = (0..<4).map { _ in Workshop(frames: frames) }
    let (ends, counts) = await whileTicking(clock) {
      await withTaskGroup(of: ((dimmed: Int, brightness: Double)?, [Int]).self) { group in
        for workshop in workshops {
          group.addTask {
            await workshop.dim()
            return (await workshop.ended(), [])
          }
          group.addTask {
            var counts: [Int] = []
            for _ in 0..<100 { counts.append(await workshop.count) }
            return (nil, counts)
          }
        }
        var ends: [(dimmed: Int, brightness: Double)] = []
        var counts: [Int] = []
        for await (end, read) in group {
          if let end { ends.append(end) }
          counts += read
        }
        return (ends, counts)
      }
    }
    #expect(ends.count == 4)
    #expect(ends.allSatisfy { $0.dimmed == 1 && $0.brightness == 0 })
    #expect(counts.allSatisfy { $0 == 0 || $0 == 1 })
    for workshop in workshops { #expect(await workshop.count == 1) }
  }

  /// Two studios start every mixin on their own hosts, a clock tick racing the loading's stop
  /// inside each, then await every mixin's wait inside the actor while the clock ticks on
  /// another thread and other tasks call the same actors.
  @Test func actorsAwaitTheirOwnHostsWhileTheClockTicksElsewhere() async {
    let clock = VirtualClock()
    let studios = (0..<2).map { _ in Studio(clock: clock) }
    for studio in studios { await studio.begin(clock: clock) }
    let outcomes = await whileTicking(clock) {
      await withTaskGroup(of: Outcome?.self) { group in
        for studio in studios {
          group.addTask {
            await studio.settle()
            return await studio.outcome
          }
          group.addTask {
            for _ in 0..<50 { _ = await studio.outcome }
            return nil
          }
        }
        var outcomes: [Outcome] = []
        for await outcome in group {
          if let outcome { outcomes.append(outcome) }
        }
        return outcomes
      }
    }
    #expect(outcomes.count == 2)
    for outcome in outcomes {
      #expect(outcome.brightness == 0)
      #expect(outcome.cardRests(on: snapPoints[1]))
      #expect(outcome.loading == [.appear(message: "Importing"), .disappear(outcome: .success)])
      #expect(outcome.isTooltipShown)
    }
  }
}
