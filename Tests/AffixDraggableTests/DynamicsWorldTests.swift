import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@testable import AffixDraggable

@Test("The same total time gives the same trajectory however frames cut it")
func steppingIsIndependentOfFrameJitter() {
  func run(_ frames: [Duration]) -> (CGPoint, CGPoint, Int) {
    let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
    let body = world.makeBody(at: CGPoint(x: 0, y: 0))
    body.velocity = CGPoint(x: 250, y: -90)
    body.snap(Snap(to: CGPoint(x: 120, y: 40), spring: .snap(damping: 0.3)))
    for frame in frames { world.advance(by: frame) }
    return (body.position, body.velocity, world.stepCount)
  }
  let steady = Array(repeating: Duration.milliseconds(10), count: 100)
  let jittery: [Duration] = [3, 27, 16, 4, 41, 9, 12, 8, 30, 17, 33, 1, 49, 0, 20]
    .map { .milliseconds($0) }
  let rest = Duration.seconds(1) - jittery.reduce(.zero, +)
  let (a, b) = (run(steady), run(jittery + Array(repeating: rest / 73, count: 73)))
  #expect(a.0 == b.0)
  #expect(a.1 == b.1)
  #expect(a.2 == b.2)
  #expect(a.2 == 120)
}

@Test("A snapped body comes to rest exactly on its point and stops stepping")
func snapComesToRest() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(at: CGPoint(x: 10, y: 300))
  body.snap(Snap(to: CGPoint(x: 160, y: 240)))
  #expect(world.needsFrames)
  for _ in 0..<(60 * 5) where world.needsFrames {
    world.advance(by: .seconds(1) / 60)
  }
  #expect(body.position == CGPoint(x: 160, y: 240))
  #expect(body.velocity == .zero)
  #expect(body.isResting)
  #expect(!world.needsFrames)
  let steps = world.stepCount
  world.advance(by: .seconds(1))
  #expect(world.stepCount == steps, "a world at rest does not step")
}

@Test("Higher snap damping overshoots less; damping 1 never overshoots")
func snapDampingControlsOvershoot() {
  func overshoot(_ damping: Double) -> Double {
    let world = DynamicsWorld(frames: nil)
    let body = world.makeBody(at: CGPoint(x: 0, y: 0))
    body.snap(Snap(to: CGPoint(x: 100, y: 0), spring: .snap(damping: damping)))
    var farthest = 0.0
    while world.needsFrames {
      world.advance(by: world.timeStep)
      farthest = max(farthest, Double(body.position.x) - 100)
    }
    return farthest
  }
  let overshoots = [0.0, 0.25, 0.5, 0.75, 1.0].map(overshoot)
  #expect(overshoots == overshoots.sorted(by: >))
  #expect(overshoots[0] > 40)
  #expect(overshoots[4] == 0)
}

@Test("A fling carries the body past its snap point before it springs back")
func flingStartsTheSnap() {
  let world = DynamicsWorld(frames: nil)
  let home = CGPoint(x: 100, y: 100)
  let body = world.makeBody(at: home)
  body.velocity = CGPoint(x: 600, y: 0)
  body.snap(Snap(to: home, spring: .snap(damping: 1)))
  var farthest = 0.0
  while world.needsFrames {
    world.advance(by: world.timeStep)
    farthest = max(farthest, Double(body.position.x))
  }
  // Critically damped from v0: the peak is v0 / (e ω) after 1/ω.
  let omega = 2 * Double.pi * 2.0
  #expect(abs(farthest - 100 - 600 / (exp(1) * omega)) < 0.5)
  #expect(body.position == home)
}

@Test("A rigid attachment holds the touched point on the finger")
func rigidAttachmentFollowsAnchorAtOffset() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(at: CGPoint(x: 50, y: 50))
  // Touched 10 points right of and 5 points above the centre.
  let touch = CGPoint(x: 60, y: 45)
  body.attach(SpringAttachment(offset: CGPoint(x: 10, y: -5), anchor: touch))
  world.advance(by: world.timeStep)
  #expect(body.position == CGPoint(x: 50, y: 50))
  body.moveAnchor(to: CGPoint(x: 160, y: 125))
  world.advance(by: world.timeStep)
  #expect(body.position == CGPoint(x: 150, y: 130))
}

@Test("A spring attachment with a length rests that far from its anchor")
func attachmentLengthKeepsDistance() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(at: CGPoint(x: 100, y: 0))
  body.attach(
    SpringAttachment(
      anchor: .zero, length: 20, spring: DampedSpring(frequency: 3, dampingRatio: 0.7)))
  for _ in 0..<600 where world.needsFrames { world.advance(by: world.timeStep) }
  #expect(!world.needsFrames)
  #expect(abs(Double(body.position.x) - 20) < 1e-9)
  #expect(body.position.y == 0)
}

@Test("Bounds hold the centre inside while flung into a wall")
func boundsStopAFling() {
  let world = DynamicsWorld(frames: nil)
  let bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
  let body = world.makeBody(at: CGPoint(x: 180, y: 50), bounds: bounds)
  body.velocity = CGPoint(x: 2_000, y: 0)
  body.snap(Snap(to: CGPoint(x: 180, y: 50), spring: .snap(damping: 0)))
  var touchedWall = false
  while world.needsFrames {
    world.advance(by: world.timeStep)
    #expect(body.position.x <= 200)
    #expect(body.position.x >= 0)
    touchedWall = touchedWall || body.position.x == 200
  }
  #expect(touchedWall)
  #expect(body.position == CGPoint(x: 180, y: 50))
}

@Test("A snap point outside the bounds snaps to the nearest point inside")
func snapPointOutsideBoundsIsClamped() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(
    at: CGPoint(x: 50, y: 50), bounds: CGRect(x: 0, y: 0, width: 100, height: 100))
  body.snap(Snap(to: CGPoint(x: 300, y: -20)))
  while world.needsFrames { world.advance(by: .seconds(1) / 60) }
  #expect(body.position == CGPoint(x: 100, y: 0))
}

@Test("Setting bounds moves a body outside them inside")
func boundsMoveBodyInside() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(at: CGPoint(x: 500, y: -5))
  body.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
  #expect(body.position == CGPoint(x: 100, y: 0))
  #expect(body.bounds == CGRect(x: 0, y: 0, width: 100, height: 100))
  body.bounds = nil
  #expect(body.bounds == nil)
}

@MainActor @Suite("A body's move handler")
struct MoveHandlerTests {
  @Test("Bodies report their moves after each advance and come to rest with a last report")
  func movesAreReported() {
    let world = DynamicsWorld(frames: nil)
    let reports = Recording<CGPoint>()
    let body = world.makeBody(at: .zero) {
      reports.append($0)
      return true
    }
    body.snap(Snap(to: CGPoint(x: 30, y: 0)))
    world.advance(by: .seconds(1) / 60)
    #expect(reports.count == 1)
    #expect(reports.last == body.position)
    while world.needsFrames { world.advance(by: .seconds(1) / 60) }
    #expect(reports.last == CGPoint(x: 30, y: 0))
    let count = reports.count
    world.advance(by: .seconds(1))
    #expect(reports.count == count)
  }

  @Test("A body whose move handler gives up leaves the world")
  func abandonedBodyIsRemoved() {
    let world = DynamicsWorld(frames: nil)
    let body = world.makeBody(at: .zero) { _ in false }
    body.snap(Snap(to: CGPoint(x: 30, y: 0)))
    world.advance(by: .seconds(1) / 60)
    #expect(body.isRemoved)
    #expect(world.bodyCount == 0)
    #expect(!world.needsFrames)
    #expect(body.position != .zero, "a removed body still answers with its last state")
  }
}

@Test("Releasing the handle or removing the body takes it out of the world")
func removalLeavesTheWorld() {
  let world = DynamicsWorld(frames: nil)
  do {
    let body = world.makeBody(at: .zero)
    body.snap(Snap(to: CGPoint(x: 30, y: 0)))
    #expect(world.bodyCount == 1)
  }
  #expect(world.bodyCount == 0)
  #expect(!world.needsFrames)
  let body = world.makeBody(at: .zero)
  body.remove()
  body.remove()
  #expect(body.isRemoved)
  #expect(world.bodyCount == 0)
}

@Test("One advance simulates at most the world's maximum advance")
func longGapsAreDropped() {
  let world = DynamicsWorld(frames: nil, maximumAdvance: .milliseconds(100))
  let body = world.makeBody(at: .zero)
  body.snap(Snap(to: CGPoint(x: 30, y: 0), spring: .snap(damping: 1)))
  world.advance(by: .seconds(10))
  #expect(world.stepCount == 12)
}

@Test("Resting bodies cost nothing: only moving ones step")
func onlyMovingBodiesStep() {
  let world = DynamicsWorld(frames: nil)
  let resting = world.makeBody(at: CGPoint(x: 5, y: 5))
  let moving = world.makeBody(at: .zero)
  moving.snap(Snap(to: CGPoint(x: 30, y: 0)))
  #expect(world.movingBodyCount == 1)
  world.advance(by: .seconds(1) / 60)
  #expect(resting.position == CGPoint(x: 5, y: 5))
  #expect(resting.isResting)
  #expect(!moving.isResting)
}

@Test("A resting body told to snap outside its bounds still moves, to the nearest point inside")
func restingBodySnapsOutsideBounds() {
  let world = DynamicsWorld(frames: nil)
  let body = world.makeBody(
    at: CGPoint(x: 50, y: 50), bounds: CGRect(x: 0, y: 0, width: 100, height: 100))
  while world.needsFrames { world.advance(by: world.timeStep) }
  #expect(body.isResting)
  let log = DiagnosticLog.capture { body.snap(Snap(to: CGPoint(x: 300, y: -20))) }
  #expect(log.messages.count == 1)
  #expect(world.needsFrames, "the snap woke the body")
  while world.needsFrames { world.advance(by: world.timeStep) }
  #expect(body.position == CGPoint(x: 100, y: 0))
}
