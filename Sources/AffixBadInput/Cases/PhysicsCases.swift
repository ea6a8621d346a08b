import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import Foundation

@MainActor func physicsCases() -> [BadInputCase] {
  var list = CaseList("AffixDraggable")
  let durations = Inputs.durations

  /// A body snapping from the origin to (100, 100) in `world`.
  func snapping(
    _ world: DynamicsWorld, from: CGPoint = .zero, to: CGPoint = CGPoint(x: 100, y: 100)
  ) -> DynamicBody {
    let body = world.makeBody(at: from)
    body.snap(Snap(to: to))
    return body
  }
  func settle(
    _ body: DynamicBody, _ world: DynamicsWorld, on stage: Stage, _ probe: Probe, seconds: Int = 60
  ) {
    for _ in 0..<(seconds * 10) {
      stage.advance(milliseconds: 100)
      probe.finite(body.position, "position")
      probe.finite(body.velocity, "velocity")
      if !probe.findings.isEmpty { return }
    }
    probe.consistent(!world.needsFrames, "not at rest after \(seconds) s")
  }

  list.add(
    "DynamicsWorld.init(frames:timeStep:restThreshold:maximumAdvance:).timeStep",
    durations, kind: timedClass,
    reportFor: [.negative, .zero, .tiny, .huge]
  ) { probe, step in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world(timeStep: step)
    probe.consistent(
      DynamicsWorld.timeStepRange.contains(world.timeStep), "time step \(world.timeStep)")
    let body = snapping(world)
    settle(body, world, on: stage, probe)
    probe.kept(
      body.position == CGPoint(x: 100, y: 100) || (body.position.x - 100).magnitude < 1,
      "the body never reached its snap point: \(body.position)")
  }
  list.add(
    "DynamicsWorld.init(frames:timeStep:restThreshold:maximumAdvance:).maximumAdvance",
    durations, kind: timedClass,
    reportFor: [.huge]
  ) { probe, advance in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world(maximumAdvance: advance)
    let body = snapping(world)
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicsWorld.init(frames:timeStep:restThreshold:maximumAdvance:).restThreshold",
    Inputs.doubles, kind: numericClass,
    reportFor: [.nonFinite, .negative, .zero, .tiny]
  ) { probe, figure in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world(restThreshold: RestThreshold(distance: figure, speed: figure))
    settle(snapping(world), world, on: stage, probe)
  }
  list.add(
    "RestThreshold.distance", Inputs.doubles, kind: numericClass,
    reportFor: [.nonFinite, .negative, .zero, .tiny]
  ) { probe, figure in
    let stage = Stage(framesPerSecond: 60)
    var threshold = RestThreshold.standard
    threshold.distance = figure
    let world = stage.world(restThreshold: threshold)
    settle(snapping(world), world, on: stage, probe)
  }
  list.add(
    "RestThreshold.speed", Inputs.someDoubles, kind: numericClass,
    reportFor: [.nonFinite, .negative, .zero, .tiny]
  ) { probe, figure in
    let stage = Stage(framesPerSecond: 60)
    var threshold = RestThreshold.standard
    threshold.speed = figure
    let world = stage.world(restThreshold: threshold)
    settle(snapping(world), world, on: stage, probe)
  }
  list.add("DynamicsWorld.advance(by:)", durations, kind: timedClass) { probe, elapsed in
    let world = makeUnclockedWorld()
    let body = snapping(world)
    world.advance(by: elapsed)
    probe.finite(body.position, "position after \(elapsed)")
    for _ in 0..<600 { world.advance(by: .milliseconds(16)) }
    probe.consistent(!world.needsFrames, "not at rest after 10 s")
  }
  list.add(
    "DynamicsWorld.makeBody(at:bounds:).position", Inputs.points, kind: numericClass,
    reportFor: [.nonFinite], report: .required
  ) { probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: point)
    probe.finite(body.position, "a new body's position")
    body.snap(Snap(to: CGPoint(x: 1, y: 1)))
    settle(body, world, on: stage, probe)
  }
  list.add("DynamicsWorld.makeBody(at:bounds:).bounds", Inputs.rects, kind: numericClass) {
    probe, bounds in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: CGPoint(x: 10, y: 10), bounds: bounds)
    body.velocity = CGPoint(x: 5000, y: -5000)
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.position", Inputs.points, kind: numericClass, reportFor: [.nonFinite, .huge],
    report: .required
  ) { probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world)
    body.position = point
    probe.finite(body.position, "position set to \(point)")
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.velocity", Inputs.points, kind: numericClass, reportFor: [.nonFinite, .huge],
    report: .required
  ) { probe, velocity in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world)
    body.velocity = velocity
    probe.finite(body.velocity, "velocity set to \(velocity)")
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.moveAnchor(to:)", Inputs.points, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, anchor in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: .zero)
    body.attach(SpringAttachment(anchor: CGPoint(x: 50, y: 50)))
    body.moveAnchor(to: anchor)
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.attach(_:).length", Inputs.doubles, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, length in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: .zero)
    body.attach(
      SpringAttachment(offset: CGPoint(x: 1, y: 1), anchor: CGPoint(x: 50, y: 50), length: length))
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.attach(_:).offset", Inputs.points, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, offset in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: .zero)
    body.attach(SpringAttachment(offset: offset, anchor: CGPoint(x: 50, y: 50), spring: .smooth))
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.snap(_:)", Inputs.points, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = world.makeBody(at: .zero)
    body.snap(Snap(to: point))
    settle(body, world, on: stage, probe)
  }
  list.add(
    "DynamicBody.bounds", Inputs.rects, kind: numericClass, reportFor: [.nonFinite],
    report: .required
  ) { probe, bounds in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world)
    body.bounds = bounds
    settle(body, world, on: stage, probe)
  }
  list.add("DynamicBody.rubberBand", Inputs.someDoubles, kind: numericClass) { probe, coefficient in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world, to: CGPoint(x: 500, y: 500))
    body.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    body.rubberBand = RubberBand(coefficient: coefficient)
    settle(body, world, on: stage, probe)
  }
  list.add("DynamicBody.remove()", "twiceThenUse", .wrongState) { probe in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world)
    body.remove()
    body.remove()
    body.position = CGPoint(x: 3, y: 3)
    body.velocity = CGPoint(x: 100, y: 0)
    body.snap(Snap(to: .zero))
    body.moveAnchor(to: .zero)
    stage.advance(milliseconds: 500)
    probe.consistent(
      body.isRemoved && world.bodyCount == 0 && !world.needsFrames,
      "a removed body is still in the world")
  }
  list.add("DynamicBody.moveAnchor(to:)", "withoutAttachment", .wrongState) { probe in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let body = snapping(world)
    body.moveAnchor(to: CGPoint(x: -50, y: -50))
    settle(body, world, on: stage, probe)
  }
  return list.cases
}
