import Affix
import AffixDraggable
import AffixScheduling
import Foundation

/// A card pressed off-centre, dragged, flung and springing back to its snap point; then
/// stretched past its bounds on a rubber band, thrown between detents, and handed off to a
/// Dancing spring; drawn as it moves.
enum DraggableScene {
  static let home = CGPoint(x: 60, y: 30)
  static let press = CGPoint(x: 64, y: 32)
  static let release = CGPoint(x: 100, y: 44)
  static let fling = CGPoint(x: 240, y: 90)

  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("draggable: drag, fling, snap back")
    let world = DynamicsWorld(frames: stage.frameClock)
    let card = DraggedCard(center: home, clock: stage.frameClock)
    let field = CardField(card: card, world: world, screen: screen)
    let drawing = stage.frameClock.subscribe { _ in field.draw() }

    stage.run { card.makeDraggable(snap: .snap(damping: 0.35), world: world) }
    screen.step(
      "makeDraggable(snap: .snap(damping: 0.35)): the card rests at its snap point \(describe(home))"
    )
    stage.pause(.milliseconds(400))

    stage.run { card.drag(.began(at: press)) }
    field.finger = press
    screen.step(
      "drag(.began(at: \(describe(press)))): pressed 4 pt right of and 2 pt below the centre")

    let steps = 24
    for index in 1...steps {
      let fraction = Double(index) / Double(steps)
      let finger = CGPoint(
        x: press.x + (release.x - press.x) * fraction,
        y: press.y + (release.y - press.y) * fraction - 10 * sin(fraction * .pi))
      field.finger = finger
      stage.run(after: .seconds(1) / 30) { card.drag(.changed(to: finger)) }
    }
    stage.run(after: .seconds(1) / 30) {}
    screen.step(
      "drag(.changed(to:)) × \(steps): the finger at \(describe(release)), the card's centre at "
        + "\(describe(card.center)): it keeps the touch offset")

    stage.run { card.drag(.ended(velocity: fling)) }
    field.finger = nil
    screen.step("drag(.ended(velocity: \(describe(fling)))): let go with a fling")
    stage.wait(upTo: .seconds(8)) { !world.needsFrames }
    screen.step(
      "springs back and rests at \(describe(card.center)), farthest out at "
        + "\(describe(field.farthest)); the world has stopped its frames: "
        + "\(world.isReceivingFrames ? "still receiving" : "no subscription")")
    stage.pause(.milliseconds(300))

    playRubberBand(card: card, field: field, world: world, on: stage)
    playDetents(card: card, field: field, world: world, on: stage)
    playHandOff(card: card, field: field, world: world, on: stage)

    screen.step("Events out of order and bad input are diagnostics, not crashes:")
    stage.run {
      card.drag(.changed(to: release))
      card.drag(.began(at: CGPoint(x: Double.nan, y: 0)))
    }
    stage.pause(.milliseconds(300))
    drawing.cancel()
    screen.clearLive()
  }

  /// A track from x = 20 to 100 along the card's row.
  static let track = CGRect(x: 20, y: 30, width: 80, height: 0)

  /// Moves the finger from `from` to `to` over `steps` frames of a 30 Hz gesture.
  private static func move(
    _ card: DraggedCard, from: CGPoint, to: CGPoint, steps: Int, field: CardField, on stage: Stage
  ) {
    for index in 1...steps {
      let fraction = Double(index) / Double(steps)
      let finger = CGPoint(
        x: from.x + (to.x - from.x) * fraction, y: from.y + (to.y - from.y) * fraction)
      field.finger = finger
      stage.run(after: .seconds(1) / 30) { card.drag(.changed(to: finger)) }
    }
    stage.run(after: .seconds(1) / 30) {}
  }

  private static func playRubberBand(
    card: DraggedCard, field: CardField, world: DynamicsWorld, on stage: Stage
  ) {
    let screen = stage.screen
    let edge = CGPoint(x: 100, y: 30)
    field.marks = [edge]
    stage.run {
      card.makeDraggable(
        snapPoint: edge, snap: .snap(damping: 0.7), bounds: track, rubberBand: .standard,
        world: world)
    }
    screen.step(
      "makeDraggable(snapPoint: \(describe(edge)), bounds: x 20...100, rubberBand: .standard)")
    stage.run { card.drag(.began(at: home)) }
    let finger = CGPoint(x: 140, y: 30)
    move(card, from: home, to: finger, steps: 16, field: field, on: stage)
    // Held still, the card rests as soon as a frame has placed it.
    stage.wait(upTo: .seconds(2)) { !world.needsFrames }
    let shown = Double(card.center.x) - 100
    let formula = RubberBand.standard.offset(forOvershoot: 40, dimension: 80)
    screen.step(
      "the finger 40 pt past the edge, the card only \(String(format: "%.1f", shown)) pt past "
        + "it: (1 - 1 / (x c / d + 1)) d = \(String(format: "%.1f", formula)) with x 40, c 0.55, "
        + "d 80")
    stage.run { card.drag(.ended(velocity: .zero)) }
    field.finger = nil
    stage.wait(upTo: .seconds(8)) { !world.needsFrames }
    screen.step("let go, it springs back inside and rests at \(describe(card.center))")
    stage.pause(.milliseconds(300))
  }

  private static func playDetents(
    card: DraggedCard, field: CardField, world: DynamicsWorld, on stage: Stage
  ) {
    let screen = stage.screen
    let detents = [CGPoint(x: 20, y: 30), CGPoint(x: 60, y: 30), CGPoint(x: 100, y: 30)]
    field.marks = detents
    let controller = LockedState<DragController?>(nil)
    let rests = LockedState<[CGPoint]>([])
    stage.run {
      let made = card.makeDraggable(
        snapPoints: detents, snap: .snap(damping: 0.7), bounds: track, rubberBand: .standard,
        world: world)
      controller.withLock { $0 = made }
    }
    screen.step("makeDraggable(snapPoints: x = 20, 60, 100): detents")
    let restToken = stage.perform {
      controller.withLock { $0 }?.body.onRest {
        rests.withLock { $0.append(card.center) }
      }
    }
    let grab = CGPoint(x: 100, y: 30)
    let letGo = CGPoint(x: 80, y: 30)
    stage.run { card.drag(.began(at: grab)) }
    move(card, from: grab, to: letGo, steps: 6, field: field, on: stage)
    let flick = CGPoint(x: -150, y: 0)
    stage.run { card.drag(.ended(velocity: flick)) }
    field.finger = nil
    if let release = controller.withLock({ $0 })?.lastRelease {
      screen.step(
        "drag(.ended(velocity: \(describe(flick))) at x = \(Int(release.position.x)): projected to "
          + "x = \(String(format: "%.1f", release.projectedPosition.x)), so the fling carries it "
          + "past the middle detent to \(describe(release.nearestSnapPoint))")
    }
    // Announced after the frame that placed it: wait for the announcement, not the frames.
    let landing = controller.withLock { $0 }?.lastRelease?.nearestSnapPoint
    stage.wait(upTo: .seconds(8)) { rests.withLock { $0.last } == landing }
    if let rest = rests.withLock({ $0.last }) {
      screen.step("onRest: the card rests at \(describe(rest)), no polling")
    }
    restToken?.cancel()
    stage.pause(.milliseconds(300))
  }

  private static func playHandOff(
    card: DraggedCard, field: CardField, world: DynamicsWorld, on stage: Stage
  ) {
    let screen = stage.screen
    field.marks = [HandOff.target]
    stage.run {
      card.center = HandOff.start
      card.makeDraggable(snapPoints: [HandOff.start], world: world)
        .onRelease { _ in .handOff }
    }
    screen.step(
      "onRelease { _ in .handOff }: thrown towards \(describe(HandOff.target)), the card is "
        + "handed to a Dancing spring")
    stage.run {
      card.drag(.began(at: HandOff.start))
      card.drag(.ended(velocity: HandOff.fling))
      guard let release = card.dragController?.lastRelease else { return }
      card.dance.animate(
        duration: 1, timingParameters: .spring(HandOff.spring(for: release))
      ) { $0.center = HandOff.target }.start()
    }
    stage.wait(upTo: .seconds(8)) { !card.dance.hasAnimation }
    screen.step("the dance ends at \(describe(card.center))")
    let comparison = stage.perform { HandOff.compare() }
    screen.step(
      "the same throw on virtual time, once snapped by the world and once danced: "
        + "\(String(format: "%.0f", comparison.speed)) pt/s towards the target = "
        + "\(String(format: "%.2f", comparison.unitVelocity)) of the distance per second; "
        + "the paths differ by at most \(String(format: "%.3f", comparison.largestGap)) pt: "
        + "the same momentum whichever mixin moves it")
    stage.pause(.milliseconds(300))
  }
}
