import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// The rows of `Docs/BadInput.md` for AffixDraggable's physics: no step, threshold or point
/// makes a world take unbounded work or a centre that is not a number.
@MainActor @Suite struct DraggableBadInputTests {
  /// A body snapping from the origin to (100, 0) in `world`.
  func snappingBody(in world: DynamicsWorld) -> DynamicBody {
    let body = world.makeBody(at: .zero)
    body.snap(Snap(to: CGPoint(x: 100, y: 0)))
    return body
  }

  @Test(arguments: [Duration(attoseconds: 1), .nanoseconds(1), .microseconds(249)])
  func aTimeStepBelowTheRangeIsRaisedAndReported(step: Duration) {
    let log = DiagnosticLog()
    let line = #line + 1
    let world = log.capture { DynamicsWorld(frames: nil, timeStep: step) }
    #expect(world.timeStep == DynamicsWorld.timeStepRange.lowerBound)
    #expect(log.lines == [line] && log.subsystems == ["drag"])
    let body = snappingBody(in: world)
    world.advance(by: .seconds(1))
    #expect(world.stepCount <= DynamicsWorld.maximumStepsPerAdvance)
    #expect(body.position.x.isFinite)
  }

  @Test(arguments: [Duration.seconds(1_000_000), .seconds(Int64.max), .milliseconds(101)])
  func aTimeStepAboveTheRangeIsLoweredReportedAndSteps(step: Duration) {
    let log = DiagnosticLog()
    let world = log.capture { DynamicsWorld(frames: nil, timeStep: step) }
    #expect(world.timeStep == DynamicsWorld.timeStepRange.upperBound)
    #expect(log.count == 1)
    let body = snappingBody(in: world)
    for _ in 0..<600 { world.advance(by: .milliseconds(16)) }
    #expect(world.stepCount > 0)
    #expect(body.isResting && body.position == CGPoint(x: 100, y: 0))
  }

  @Test func aMaximumAdvanceOfMoreStepsThanAFrameTakesIsLoweredAndReported() {
    let log = DiagnosticLog()
    let world = log.capture {
      DynamicsWorld(
        frames: nil, timeStep: .milliseconds(1), maximumAdvance: Duration(attoseconds: .max))
    }
    #expect(world.maximumAdvance == .milliseconds(1) * DynamicsWorld.maximumStepsPerAdvance)
    #expect(log.count == 1)
    _ = snappingBody(in: world)
    world.advance(by: Duration(attoseconds: .max))
    world.advance(by: Duration(attoseconds: .max))
    #expect(world.stepCount <= 2 * DynamicsWorld.maximumStepsPerAdvance)
  }

  @Test func theDefaultsAreUsedAsGiven() {
    let log = DiagnosticLog()
    let world = log.capture { DynamicsWorld(frames: nil) }
    #expect(log.count == 0)
    #expect(world.restThreshold == .standard && world.maximumAdvance == .milliseconds(250))
    let fastest = log.capture {
      DynamicsWorld(frames: nil, timeStep: DynamicsWorld.timeStepRange.lowerBound)
    }
    #expect(log.count == 0 && fastest.maximumAdvance == .milliseconds(250))
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, 0, -1])
  func aRestThresholdSetThroughItsVarsIsCheckedWhereTheWorldUsesIt(figure: Double) {
    var threshold = RestThreshold.standard
    threshold.distance = figure
    threshold.speed = figure
    let log = DiagnosticLog()
    let world = log.capture { DynamicsWorld(frames: nil, restThreshold: threshold) }
    #expect(log.count == 2)
    let expected = figure.isFinite ? DynamicsWorld.minimumRestThreshold : .standard
    #expect(world.restThreshold == expected)
    let body = snappingBody(in: world)
    // The world comes to rest: it needs frames for a bounded time, not for ever.
    for _ in 0..<(60 * 60) where world.needsFrames { world.advance(by: .milliseconds(16)) }
    #expect(!world.needsFrames && body.position == CGPoint(x: 100, y: 0))
  }

  @Test(arguments: [1e308, -1e308, .greatestFiniteMagnitude])
  func snapPointsAndPositionsAtTheEdgesOfDoubleKeepTheCentreFinite(coordinate: Double) {
    let world = DynamicsWorld(frames: nil)
    let bound = DynamicsWorld.maximumCoordinate
    let held = coordinate < 0 ? -bound : bound
    let log = DiagnosticLog()
    let body = log.capture { world.makeBody(at: CGPoint(x: -coordinate, y: 0)) }
    #expect(body.position == CGPoint(x: -held, y: 0))
    log.capture {
      body.snap(Snap(to: CGPoint(x: coordinate, y: coordinate)))
      body.velocity = CGPoint(x: coordinate, y: -coordinate)
    }
    #expect(log.count == 3)
    for _ in 0..<(60 * 60) where world.needsFrames {
      world.advance(by: .milliseconds(16))
      #expect(body.position.x.isFinite && body.position.y.isFinite)
    }
    #expect(!world.needsFrames && body.position == CGPoint(x: held, y: held))
  }

  @Test(arguments: [1e308, -1e308])
  func dragInputAtTheEdgesOfDoubleKeepsTheCentreFinite(coordinate: Double) {
    let world = DynamicsWorld(frames: nil)
    let card = Card(at: CGPoint(x: 10, y: 10))
    card.makeDraggable(snapPoints: [.zero, CGPoint(x: coordinate, y: 0)], world: world)
    card.drag(.began(at: CGPoint(x: 10, y: 10)))
    card.drag(.changed(to: CGPoint(x: coordinate, y: -coordinate)))
    card.drag(.changed(to: CGPoint(x: -coordinate, y: coordinate)))
    world.advance(by: .milliseconds(16))
    #expect(card.center.x.isFinite && card.center.y.isFinite)
    card.drag(.ended(velocity: CGPoint(x: coordinate, y: coordinate)))
    for _ in 0..<(60 * 60) where world.needsFrames {
      world.advance(by: .milliseconds(16))
      #expect(card.center.x.isFinite && card.center.y.isFinite)
    }
    #expect(!world.needsFrames)
    #expect(card.dragController.map { $0.snapPoint.x.isFinite && $0.snapPoint.y.isFinite } == true)
  }

  @Test func aNaNCentreAtMakeDraggableIsReplacedInTheHostAndTheSnapPoint() {
    let world = DynamicsWorld(frames: nil)
    let card = Card(at: CGPoint(x: Double.nan, y: 3))
    let log = DiagnosticLog()
    let controller = log.capture { card.makeDraggable(world: world) }
    #expect(controller.snapPoint == .zero)
    #expect(controller.snapPoints == [.zero])
    #expect(log.count >= 1)
    // The host agrees with its body at once, before any drag writes it.
    #expect(card.center == .zero)
    card.drag(.began(at: .zero))
    card.drag(.ended(velocity: .zero))
    for _ in 0..<600 where world.needsFrames { world.advance(by: .milliseconds(16)) }
    #expect(card.center == .zero)
  }
}
