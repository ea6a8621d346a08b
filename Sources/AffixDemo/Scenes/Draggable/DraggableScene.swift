import AffixDraggable
import AffixScheduling
import Foundation

/// A card pressed off-centre, dragged, flung and springing back to its snap point, drawn as
/// it moves.
enum DraggableScene {
  static let home = CGPoint(x: 60, y: 30)
  static let press = CGPoint(x: 64, y: 32)
  static let release = CGPoint(x: 100, y: 44)
  static let fling = Vector2D(dx: 240, dy: 90)

  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("draggable: drag, fling, snap back")
    let world = DynamicsWorld(clock: stage.frameClock)
    let card = DraggedCard(position: home)
    let field = CardField(card: card, world: world, screen: screen)
    let drawing = stage.frameClock.subscribe { _ in field.draw() }

    stage.run { card.makeDraggable(damping: 0.35, world: world) }
    screen.step("makeDraggable(damping: 0.35): the card rests at its snap point \(describe(home))")
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
        + "\(describe(card.position)): it keeps the touch offset")

    stage.run { card.drag(.ended(velocity: fling)) }
    field.finger = nil
    screen.step("drag(.ended(velocity: \(fling))): let go with a fling")
    stage.wait(upTo: .seconds(8)) { !world.needsFrames }
    screen.step(
      "springs back and rests at \(describe(card.position)), farthest out at "
        + "\(describe(field.farthest)); the world has stopped its frames: "
        + "\(world.isReceivingFrames ? "still receiving" : "no subscription")")
    stage.pause(.milliseconds(300))

    screen.step("Events out of order and bad input are diagnostics, not crashes:")
    stage.run {
      card.drag(.changed(to: release))
      card.drag(.began(at: CGPoint(x: Double.nan, y: 0)))
    }
    stage.pause(.milliseconds(300))
    drawing.cancel()
    screen.clearLive()
  }
}
