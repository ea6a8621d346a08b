import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import Foundation

/// A draggable view.
final class Card: Draggable {
  var center: CGPoint
  init(at center: CGPoint = CGPoint(x: 10, y: 10)) { self.center = center }
}

/// A main-actor draggable view, fed from elsewhere.
@MainActor final class Tile: @MainActor Draggable {
  var center = CGPoint(x: 10, y: 10)
}

/// An actor that sends a main-actor view's drag its events.
actor Gesture {
  func feed(_ controller: DragController) {
    _ = self
    controller.drag(.began(at: CGPoint(x: 0, y: 0)))
  }
}

/// Runs `stage` for `seconds` of frames, checking the card's centre is finite after each
/// 100 ms; then that the world came to rest.
@MainActor func watch(
  _ card: Card, world: DynamicsWorld, on stage: Stage, seconds: Int = 30, rests: Bool = true,
  _ probe: Probe
) {
  for step in 0..<(seconds * 10) {
    stage.advance(milliseconds: 100)
    probe.finite(card.center, "centre after \(step + 1) frames")
    if !probe.findings.isEmpty { return }
  }
  guard rests else { return }
  probe.consistent(
    !world.needsFrames && world.movingBodyCount == 0,
    "the world is not at rest after \(seconds) s: \(world.movingBodyCount) moving")
}

@MainActor func draggableCases() -> [BadInputCase] {
  var list = CaseList("AffixDraggable")
  let points = Inputs.points

  func draggable(at center: CGPoint = CGPoint(x: 10, y: 10)) -> (
    Stage, DynamicsWorld, Card, DragController
  ) {
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card(at: center)
    let controller = card.makeDraggable(world: world)
    return (stage, world, card, controller)
  }

  list.add(
    "DragController.drag(_:).began", points, kind: numericClass,
    reportFor: [.nonFinite]
  ) { probe, at in
    let (stage, world, card, controller) = draggable()
    controller.drag(.began(at: at))
    controller.drag(.changed(to: CGPoint(x: 50, y: 50)))
    controller.drag(.ended(velocity: .zero))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "DragController.drag(_:).changed", points, kind: numericClass,
    reportFor: [.nonFinite]
  ) { probe, to in
    let (stage, world, card, controller) = draggable()
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: to))
    probe.finite(card.center, "centre after a change to \(to)")
    controller.drag(.ended(velocity: CGPoint(x: 100, y: 0)))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "DragController.drag(_:).ended", points, kind: numericClass,
    reportFor: [.nonFinite]
  ) { probe, velocity in
    let (stage, world, card, controller) = draggable()
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 30, y: 30)))
    controller.drag(.ended(velocity: velocity))
    if let release = controller.lastRelease {
      probe.finite(release.velocity, "the release's velocity")
      probe.finite(release.projectedPosition, "the release's projection")
    }
    watch(card, world: world, on: stage, probe)
  }
  let outOfOrder: [(String, [DragEvent], Bool)] = [
    ("changedWithoutBegan", [.changed(to: CGPoint(x: 5, y: 5))], true),
    ("endedWithoutBegan", [.ended(velocity: CGPoint(x: 5, y: 5))], true),
    (
      "beganTwice", [.began(at: .zero), .began(at: CGPoint(x: 1, y: 1)), .ended(velocity: .zero)],
      true
    ),
    ("endedTwice", [.began(at: .zero), .ended(velocity: .zero), .ended(velocity: .zero)], true),
    ("cancelledWithoutBegan", [.cancelled], false),
    ("failedWithoutBegan", [.failed], false),
    (
      "changedAfterCancelled", [.began(at: .zero), .cancelled, .changed(to: CGPoint(x: 9, y: 9))],
      true
    ),
  ]
  for (label, events, reported) in outOfOrder {
    list.add(
      "DragController.drag(_:)", label, .wrongState,
      report: reported ? .atCaller : .optional
    ) { probe in
      let (stage, world, card, controller) = draggable()
      for event in events { controller.drag(event) }
      probe.consistent(!controller.isDragging || label == "beganTwice", "dragging after \(label)")
      watch(card, world: world, on: stage, probe)
      probe.consistent(
        card.center == CGPoint(x: 10, y: 10) || label == "beganTwice",
        "the card moved to \(card.center)")
    }
  }
  list.add(
    "Draggable.makeDraggable(snapPoint:snap:bounds:rubberBand:attachment:world:).center",
    points, kind: numericClass, reportFor: [.nonFinite], report: .required
  ) {
    probe, center in
    let (stage, world, card, controller) = draggable(at: center)
    probe.finite(controller.snapPoint, "the default snap point")
    probe.finite(controller.body.position, "the body's position")
    // The card is moved where its body was put, at once.
    probe.finite(card.center, "the card's centre")
    stage.advance(milliseconds: 1000)
    probe.consistent(!world.needsFrames, "a body made at a non-finite centre is moving")
  }
  list.add(
    "Draggable.makeDraggable(snapPoint:snap:bounds:rubberBand:attachment:world:).snapPoint",
    points, kind: numericClass, reportFor: [.nonFinite], report: .required
  ) {
    probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(snapPoint: point, world: world)
    probe.finite(controller.snapPoint, "the snap point")
    controller.drag(.began(at: .zero))
    controller.drag(.ended(velocity: .zero))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "Draggable.makeDraggable(snapPoints:snap:bounds:rubberBand:attachment:world:)",
    points, kind: numericClass, reportFor: [.nonFinite], report: .required
  ) {
    probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(snapPoints: [point, CGPoint(x: 100, y: 100)], world: world)
    probe.finite(
      [Double]((controller.snapPoints.flatMap { [Double($0.x), Double($0.y)] })), "snap points")
    probe.kept(
      controller.snapPoints.contains(CGPoint(x: 100, y: 100)), "a usable snap point was lost")
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 90, y: 90)))
    controller.drag(.ended(velocity: .zero))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "Draggable.makeDraggable(snapPoints:snap:bounds:rubberBand:attachment:world:)",
    "empty", .wrongState
  ) { probe in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(snapPoints: [], world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.ended(velocity: CGPoint(x: 300, y: 0)))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "Draggable.makeDraggable(snapPoint:snap:bounds:rubberBand:attachment:world:).bounds",
    Inputs.rects, kind: numericClass
  ) {
    probe, bounds in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(bounds: bounds, rubberBand: .standard, world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 500, y: -500)))
    probe.finite(card.center, "centre dragged against \(bounds)")
    controller.drag(.ended(velocity: CGPoint(x: 1000, y: 1000)))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "Draggable.makeDraggable(snapPoint:snap:bounds:rubberBand:attachment:world:).rubberBand",
    Inputs.doubles, kind: numericClass
  ) {
    probe, coefficient in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let band = RubberBand(
      coefficient: coefficient, dimensions: CGSize(width: coefficient, height: 100))
    let controller = card.makeDraggable(
      bounds: CGRect(x: 0, y: 0, width: 100, height: 100), rubberBand: band, world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 500, y: -500)))
    probe.finite(card.center, "centre dragged past a band of \(coefficient)")
    controller.drag(.ended(velocity: .zero))
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "Draggable.makeDraggable(snapPoint:snap:bounds:rubberBand:attachment:world:).snap",
    Inputs.doubles, kind: numericClass
  ) {
    probe, frequency in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(
      snap: .snap(damping: frequency, frequency: frequency), world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 300, y: 300)))
    controller.drag(.ended(velocity: CGPoint(x: 100, y: 100)))
    // A spring at the lowest frequency a spring may have takes months to rest, as asked.
    watch(card, world: world, on: stage, rests: frequency.isFinite && frequency >= 1, probe)
  }
  list.add(
    "DragController.snapPoint", points, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, point in
    let (stage, world, card, controller) = draggable()
    controller.snapPoint = point
    probe.finite(controller.snapPoint, "the snap point")
    watch(card, world: world, on: stage, probe)
  }
  list.add(
    "DragController.snapPoints", points, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, point in
    let (stage, world, card, controller) = draggable()
    controller.snapPoints = [CGPoint(x: 5, y: 5), point]
    probe.kept(controller.snapPoints.contains(CGPoint(x: 5, y: 5)), "a usable snap point was lost")
    probe.finite(
      [Double]((controller.snapPoints.flatMap { [Double($0.x), Double($0.y)] })), "snap points")
    controller.drag(.began(at: .zero))
    controller.drag(.ended(velocity: CGPoint(x: -1e6, y: 1e6)))
    watch(card, world: world, on: stage, probe)
  }
  list.add("DragController.snap", Inputs.someDoubles, kind: numericClass) { probe, stiffness in
    let (stage, world, card, controller) = draggable()
    controller.snap = DampedSpring(mass: 1, stiffness: stiffness, damping: stiffness)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 200, y: 0)))
    controller.drag(.ended(velocity: .zero))
    watch(card, world: world, on: stage, probe)
  }
  list.add("DragController.decelerationRate", Inputs.someDoubles, kind: numericClass) {
    probe, raw in
    let (stage, world, card, controller) = draggable()
    if let rate = DecelerationRate(rawValue: raw) { controller.decelerationRate = rate }
    controller.drag(.began(at: .zero))
    controller.drag(.ended(velocity: CGPoint(x: 1e6, y: 0)))
    watch(card, world: world, on: stage, probe)
  }

  list.add("Draggable.drag(_:)", "afterHostDied", .deadHost) { probe in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    var card: Card? = Card()
    let controller = card!.makeDraggable(world: world)
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 50, y: 0)))
    card = nil
    AssociationTable.sweep()
    controller.drag(.changed(to: CGPoint(x: 80, y: 0)))
    controller.drag(.ended(velocity: CGPoint(x: 500, y: 0)))
    stage.advance(milliseconds: 5000)
    probe.consistent(!world.needsFrames, "a dead card's world still needs frames")
  }
  list.add("Draggable.removeDraggable()", "twice", .wrongState, report: .atCaller) {
    probe in
    let (stage, world, card, controller) = draggable()
    controller.drag(.began(at: .zero))
    card.removeDraggable()
    card.removeDraggable()
    controller.drag(.changed(to: CGPoint(x: 40, y: 40)))
    stage.advance(milliseconds: 1000)
    probe.consistent(
      !card.isDraggable && world.bodyCount == 0, "a removed drag keeps \(world.bodyCount) bodies")
  }
  list.add(
    "DragController.drag(_:)", "fromAnotherActor", .wrongState,
    report: .atCaller
  ) { probe in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let tile = Tile()
    tile.makeDraggable(world: world)
    guard let controller = tile.dragController else {
      return probe.fail(.inconsistent, "no controller")
    }
    await Gesture().feed(controller)
    probe.consistent(!controller.isDragging, "an event from another actor began a drag")
  }

  // Pure geometry.
  list.sweep("RubberBand.clamp(_:to:dimension:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let value = input.value
    for band in [RubberBand.standard, RubberBand(coefficient: 1e308)] {
      let clamped = band.clamp(value, to: 0...100, dimension: 100)
      if value.isFinite { probe.finite(clamped, "clamp of \(value)") }
      _ = band.clamp(50, to: 0...100, dimension: value)
      if value.isFinite {
        probe.finite(band.offset(forOvershoot: value, dimension: 100), "offset for \(value)")
        probe.finite(
          band.overshoot(forOffset: min(abs(value), 99), dimension: 100), "overshoot for \(value)")
      }
    }
  }
  list.sweep("DragRelease.distance(to:)", points, .crash) { probe, input in
    let point = input.value
    let release = DragRelease(
      position: point, velocity: point, projectedPosition: point, nearestSnapPoint: .zero,
      previousSnapPoint: .zero)
    let distance = release.distance(to: CGPoint(x: -1e308, y: 1e308))
    let speed = release.speed(towards: .zero)
    if point.x.isFinite && point.y.isFinite {
      probe.consistent(
        !distance.isNaN && !speed.isNaN, "\(point): distance \(distance), speed \(speed)")
    }
  }
  return list.cases
}
