import Affix
import AffixDancing
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Dispatch
import Foundation
import Testing

/// A main-actor view that records, in its setter, whether each write ran on the main actor.
@MainActor final class CheckedCard: @MainActor Draggable {
  var writesOffTheMainActor = 0
  var writes = 0
  var center = CGPoint(x: 0, y: 0) {
    didSet {
      writes += 1
      if !isOnMainQueue() { writesOffTheMainActor += 1 }
      MainActor.assertIsolated("a mixin wrote a main-actor host's property off the main actor")
    }
  }
}

/// A main-actor view that dances on a virtual clock and checks, in its setter, where each
/// write runs.
@MainActor final class CheckedSprite: @MainActor Dancing {
  let clock: FrameSource
  var writes = 0
  var alpha = 1.0 {
    didSet {
      writes += 1
      MainActor.assertIsolated("a mixin wrote a main-actor host's property off the main actor")
    }
  }

  init(clock: FrameSource) {
    self.clock = clock
  }

  var danceFrames: FrameSource { clock }
}

@MainActor @Suite struct HostIsolationTests {
  @Test func aVirtualClockAdvancedOffTheMainActorWritesADancingViewOnTheMainActor() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let clock = frames.clock
    let sprite = CheckedSprite(clock: frames.source)
    let ending = Task { await sprite.dance.animate(duration: 0.5) { $0.alpha = 0 }.start().ended() }
    #expect(await eventually { sprite.dance.dancer.waiterCount > 0 })
    // The clock's thread: a detached task, never the main actor.
    await Task.detached {
      for _ in 0..<60 { clock.advance(by: .seconds(1) / 60) }
    }.value
    #expect(await ending.value == .end)
    #expect(sprite.alpha == 0)
    #expect(sprite.writes > 1)
  }

  /// Removed from another thread, the dancer stops: no frame that begins afterwards writes the
  /// view, and the clock's frames stop.
  @Test func aDanceRemovedFromAnotherThreadWritesNoLaterFrame() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let sprite = CheckedSprite(clock: frames.source)
    sprite.dance.animate(duration: 2, curve: .linear) { $0.alpha = 0 }.start()
    frames.frames(6)
    for _ in 0..<1_000 where sprite.writes == 0 { await Task.yield() }
    let before = sprite.writes
    #expect(before > 0)
    await Task.detached {
      #expect(Associations(of: sprite).removeCapability(Dancer.self) != nil)
    }.value
    frames.frames(60)
    for _ in 0..<100 { await Task.yield() }
    #expect(sprite.writes == before, "a frame after the removal wrote the view")
    #expect(frames.source.subscriberCount == 0)
    #expect(!sprite.dance.hasAnimation)
  }

  @Test func aDancingViewKeptBusyRunsOneFrameTheNewest() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let clock = frames.clock
    let sprite = CheckedSprite(clock: frames.source)
    let dance = sprite.dance.animate(duration: 2, curve: .linear) { $0.alpha = 0 }.start()
    let before = sprite.writes
    // Sixty frames on another thread while this test holds the main actor.
    DispatchQueue.global().sync {
      for _ in 0..<60 { clock.advance(by: .seconds(1) / 60) }
    }
    #expect(sprite.writes == before)
    for _ in 0..<1_000 where sprite.writes == before { await Task.yield() }
    for _ in 0..<100 { await Task.yield() }
    #expect(sprite.writes == before + 1, "a busy actor ran every frame it missed")
    // The one frame is the newest: a second of a two-second linear fade.
    #expect(abs(sprite.alpha - 0.5) < 0.02)
    dance.stop()
  }

  @Test func aVirtualClockAdvancedOffTheMainActorWritesADraggedViewOnTheMainActor() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let clock = frames.clock
    let world = DynamicsWorld(frames: frames.source)
    let card = CheckedCard()
    card.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), world: world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 40, y: 40)))
    card.drag(.ended(velocity: CGPoint(x: 0, y: 0)))
    // The clock's thread: a detached task, never the main actor.
    await Task.detached {
      for _ in 0..<120 { clock.advance(by: .seconds(1) / 60) }
    }.value
    // The writes were enqueued on the main actor; this test's awaits let them run.
    for _ in 0..<10_000 where abs(card.center.x - 100) > 1 { await Task.yield() }
    #expect(card.writes > 0)
    #expect(card.writesOffTheMainActor == 0)
    #expect(abs(card.center.x - 100) < 1)
    card.removeDraggable()
  }
}

/// An actor of its own for a host, whose jobs run by priority, as every default actor's do.
@globalActor actor CardActor {
  static let shared = CardActor()
}

/// A card on `CardActor`.
@CardActor final class ActorCard: @CardActor Draggable {
  var center = CGPoint(x: 0, y: 0)

  /// A card made draggable in `world` on its actor.
  static func draggable(in world: DynamicsWorld) -> (ActorCard, DragController) {
    let card = ActorCard()
    return (card, card.makeDraggable(world: world))
  }
}

@Suite struct DragWaitTests {
  @CardActor @Test func settledReturnsOnceTheLastMoveHasReachedTheHost() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let clock = frames.clock
    let world = DynamicsWorld(frames: frames.source)
    let card = ActorCard()
    let drag = card.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), world: world)
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 40, y: 40)))
    card.drag(.ended(velocity: CGPoint(x: 0, y: 0)))
    // The frames run on another queue while this test keeps the actor busy: their moves wait
    // on the actor, behind a waiter of higher priority that the actor runs first.
    DispatchQueue.global().sync { _ = clock.runUntilIdle(maxSteps: 60 * 30) }
    #expect(drag.body.isResting)
    #expect(abs(card.center.x - 100) > 1)
    let waiter = Task(priority: .high) { @CardActor in
      await drag.settled()
      return card.center
    }
    let center = await waiter.value
    #expect(abs(center.x - 100) < 1, "settled() returned before the moves reached the host")
    card.removeDraggable()
  }
}

/// A sprite on `CardActor`.
@CardActor final class ActorSprite: @CardActor Dancing {
  let clock: FrameSource
  var alpha = 1.0

  init(clock: FrameSource) {
    self.clock = clock
  }

  nonisolated var danceFrames: FrameSource { clock }
}

@Suite struct DanceWaitTests {
  @CardActor @Test func endedReturnsOnceTheCompletionsHaveRunOnTheHostsActor() async {
    let frames = VirtualFrames(framesPerSecond: 60)
    let clock = frames.clock
    let sprite = ActorSprite(clock: frames.source)
    let completed = Flag()
    let dance = sprite.dance.animate(duration: 0.5) { $0.alpha = 0 }
      .addCompletion { _ in completed.set() }
      .start()
    // The frames run on another queue while this test keeps the actor busy: the frames, then
    // the completion they call, wait on the actor, behind a waiter of higher priority that the
    // actor runs first.
    DispatchQueue.global().sync { _ = clock.runUntilIdle(maxSteps: 60 * 30) }
    let waiter = Task(priority: .high) { @CardActor in
      let position = await dance.ended()
      return (position, completed.isSet)
    }
    let (position, ranFirst) = await waiter.value
    #expect(position == .end)
    #expect(ranFirst, "ended() returned before the completion ran on the host's actor")
  }
}

@MainActor @Suite struct MoveDeliveryTests {
  /// The positions each of `count` main-actor bodies is handed while a world advances 30
  /// steps, on the main actor or off it, with every body moving at every step.
  func recordedMoves(bodies count: Int, advancedOffTheMainActor: Bool) async -> [[CGPoint]] {
    let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
    var recorded = Array(repeating: [CGPoint](), count: count)
    let bodies = (0..<count).map { index in
      let body = world.makeBody(at: CGPoint(x: Double(index) * 10, y: 0)) { position in
        MainActor.assertIsolated("a main-actor move handler ran off the main actor")
        recorded[index].append(position)
        return true
      }
      body.velocity = CGPoint(x: 100 * Double(index + 1), y: -50)
      body.snap(Snap(to: CGPoint(x: 200, y: 200), spring: .snap(damping: 0)))
      return body
    }
    if advancedOffTheMainActor {
      await Task.detached {
        for _ in 0..<30 { world.advance(by: world.timeStep) }
      }.value
      // The moves wait on the main actor; this test's awaits let them run.
      for _ in 0..<10_000
      where zip(recorded, bodies).contains(where: { $0.last != $1.position }) {
        await Task.yield()
      }
    } else {
      for _ in 0..<30 { world.advance(by: world.timeStep) }
    }
    withExtendedLifetime(bodies) {}
    return recorded
  }

  @Test func aBodyHandedOverLaterGetsNewerMovesInOrderAndEndsWhereItIs() async {
    let here = await recordedMoves(bodies: 3, advancedOffTheMainActor: false)
    let later = await recordedMoves(bodies: 3, advancedOffTheMainActor: true)
    #expect(here.map(\.count) == [30, 30, 30])
    for (inline, deferred) in zip(here, later) {
      #expect(!deferred.isEmpty)
      #expect(deferred.last == inline.last)
      // Each move handed over later is one the body made, after the one handed before it.
      var rest = inline[...]
      for move in deferred {
        guard let found = rest.firstIndex(of: move) else {
          Issue.record("a move out of order, or never made: \(move)")
          break
        }
        rest = rest[(found + 1)...]
      }
    }
  }

  @Test func aWorldWithHandlersOnTwoActorsHandsEachItsOwnMoves() async {
    let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
    var here: [CGPoint] = []
    var leavingMoves = 0
    let stays = world.makeBody(at: .zero) { position in
      here.append(position)
      return true
    }
    let leaves = world.makeBody(at: CGPoint(x: 5, y: 0)) { _ in
      leavingMoves += 1
      return leavingMoves < 5
    }
    let (card, drag) = await ActorCard.draggable(in: world)
    for body in [stays, leaves, drag.body] {
      body.snap(Snap(to: CGPoint(x: 200, y: 200), spring: .snap(damping: 0)))
    }
    for _ in 0..<30 { world.advance(by: world.timeStep) }
    #expect(here.count == 30, "the main actor's handler ran at each step, here")
    #expect(leavingMoves == 5)
    #expect(leaves.isRemoved, "a handler that asked for its body's removal kept it")
    #expect(!stays.isRemoved && !drag.body.isRemoved)
    // The card's moves run later, on its actor.
    #expect(
      await eventually { await card.center == drag.body.position },
      "the actor's card did not end where its body is")
  }

  @Test func movesWaitingForABusyActorKeepOnlyTheNewestOfEachBody() async {
    let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
    var moves = 0
    var last = [Int: CGPoint]()
    let bodies = (0..<3).map { index in
      let body = world.makeBody(at: CGPoint(x: Double(index) * 10, y: 0)) { position in
        moves += 1
        last[index] = position
        return true
      }
      body.snap(Snap(to: CGPoint(x: 200, y: 200), spring: .snap(damping: 0)))
      return body
    }
    // 600 steps on another thread while this test holds the main actor.
    DispatchQueue.global().sync {
      for _ in 0..<600 { world.advance(by: world.timeStep) }
    }
    #expect(moves == 0)
    #expect(world.movesBacklog.now == 3)
    #expect(world.movesBacklog.peak == 3, "more than one move a body waited")
    for _ in 0..<10_000 where world.movesBacklog.now > 0 { await Task.yield() }
    #expect(moves == 3)
    for (index, body) in bodies.enumerated() { #expect(last[index] == body.position) }
  }
}
