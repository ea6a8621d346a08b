// The sound uses of Tests/Fixtures/must-compile/handles-in-their-hosts-isolation.swift, driven
// while frames and timers tick on another thread: a main-actor view's dance, drag, loading and
// tooltip driven on the main actor and its handles read from other tasks; an actor's own lamp
// animated, scrubbed and awaited inside it while other tasks call the actor.
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation
import Testing

@MainActor private final class CardView: @MainActor Dancing, @MainActor Draggable {
  let clock: VirtualClock
  let frames: FrameSource
  let indicator = RecordingIndicator()
  var center = CGPoint.zero
  var alpha = 1.0
  var isTooltipShown = false {
    didSet { tooltipWrites.append(isTooltipShown) }
  }
  var tooltipWrites: [Bool] = []

  init(clock: VirtualClock) {
    self.clock = clock
    frames = FrameSource(clock: clock, framesPerSecond: 60)
  }

  var danceFrames: FrameSource { frames }
}

extension CardView: @MainActor Loading, @MainActor Tooltipped {
  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { clock }
  var tooltipClock: any SchedulingClock { clock }
}

@MainActor private func play(_ card: CardView, in world: DynamicsWorld) async -> AnimatingPosition?
{
  let fade = card.dance.animate(duration: 0.3) { $0.alpha = 0 }.start()
  fade.pause().setProgress(to: 0.5).setReversed(true).start()
  card.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), world: world)
  card.drag(.began(at: .zero))
  card.drag(.changed(to: CGPoint(x: 40, y: 40)))
  card.dragController?.drag(.ended(velocity: .zero))
  let position = await fade.ended()
  let loading = card.loadingController()
  loading.start(message: "Saving")
  // Shown once the clock's thread has passed the grace time, and the call reached the view.
  await yield(until: { card.indicator.isShown })
  loading.update(progress: 0.5)
  loading.stop()
  await loading.settled()
  card.pointerEntered()
  await card.tooltipSettled()
  card.tooltip?.pointerExited()
  await card.tooltip?.settled()
  return position
}

private func peek(_ card: CardView) -> Double {
  // A main-actor view's handle is reached anywhere; reading its state touches nothing of the
  // view.
  Dance.of(card).progress
}

/// Whether the view is loading, read as `peek` reads its dance: through a handle that is
/// `Sendable`, touching nothing of the view.
private func isLoading(_ card: CardView) -> Bool {
  LoadingController.attached(to: card)?.isLoading ?? false
}

private actor Room {
  let lamp: Lamp

  init(frames: FrameSource) {
    lamp = Lamp(frames: frames)
  }

  func dim() async -> AnimatingPosition? {
    let dance = lamp.dance.animate(duration: 1) { $0.brightness = 0 }.start()
    dance.setProgress(to: 0.25)
    return await dance.start().ended()
  }

  var brightness: Double { lamp.brightness }
}

@Suite(.timeLimit(.minutes(1))) struct HandlesInTheirHostsIsolationTests {
  /// The view's fade is paused, scrubbed, reversed and restarted on the main actor, and it is
  /// dragged, loads and shows its tooltip there, while its frames and timers tick on another
  /// thread and tasks of a group read its handles: the fade runs back to its start, the card
  /// settles on its snap point, the indicator and the tooltip come and go once each.
  @MainActor @Test func aMainActorViewsHandlesDrivenThereWhileFramesTickElsewhere() async {
    let clock = VirtualClock()
    let card = CardView(clock: clock)
    let world = DynamicsWorld(frames: card.frames)
    let stop = Flag()
    let peeks = Task.detached {
      await withTaskGroup(of: [Double].self) { group in
        for _ in 0..<3 {
          group.addTask {
            var seen: [Double] = []
            repeat {
              seen.append(peek(card))
              _ = isLoading(card)
              await Task.yield()
            } while !stop.isRaised
            return seen
          }
        }
        var seen: [Double] = []
        for await progress in group { seen += progress }
        return seen
      }
    }
    let (position, center) = await whileTicking(clock) {
      let position = await play(card, in: world)
      await card.dragController?.settled()
      return (position, card.center)
    }
    stop.raise()
    let seen = await peeks.value
    #expect(position == .start)
    #expect(card.alpha == 1)
    #expect(abs(center.x - 100) < 1 && abs(center.y) < 1)
    #expect(card.center == center)
    #expect(!seen.isEmpty)
    #expect(seen.allSatisfy { (0...1).contains($0) })
    #expect(
      card.indicator.transitions == [
        .appear(message: "Saving"), .progress(0.5), .disappear(outcome: .success),
      ])
    #expect(card.tooltipWrites == [true, false])
    #expect(!isLoading(card))
    card.removeDraggable()
  }

  /// Four rooms dim their own lamps inside their actors, scrubbing and restarting them, while
  /// the frames tick on another thread and other tasks call the same actors: each lamp's dance
  /// ends at its end, the lamp dark.
  @Test func actorsAnimateScrubAndAwaitTheirOwnLampsWhileOtherTasksCallThem() async {
    let clock = VirtualClock()
    let frames = FrameSource(clock: clock, framesPerSecond: 60)
    let rooms = (0..<4).map { _ in Room(frames: frames) }
    let (positions, readings) = await whileTicking(clock) {
      await withTaskGroup(of: (AnimatingPosition?, [Double]).self) { group in
        for room in rooms {
          group.addTask { (await room.dim(), []) }
          group.addTask {
            var readings: [Double] = []
            for _ in 0..<100 { readings.append(await room.brightness) }
            return (nil, readings)
          }
        }
        var positions: [AnimatingPosition] = []
        var readings: [Double] = []
        for await (position, read) in group {
          if let position { positions.append(position) }
          readings += read
        }
        return (positions, readings)
      }
    }
    #expect(positions == [.end, .end, .end, .end])
    for room in rooms { #expect(await room.brightness == 0) }
    #expect(readings.count == 400)
    #expect(readings.allSatisfy { (0...1).contains($0) })
  }
}
