import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// Flings and snap springs at the edges of `Double`.
@MainActor @Suite("Flings and snap springs at the edges")
struct FlingEdgeTests {
  @Test("A fling too fast for the world is held, reported at the caller, and lands on a detent")
  func aHugeFlingIsHeldAndLandsOnADetent() throws {
    let virtual = VirtualWorld()
    let near = CGPoint(x: 0, y: 0)
    let far = CGPoint(x: 10_000, y: 0)
    let card = Card(at: near)
    let controller = card.makeDraggable(snapPoints: [near, far], world: virtual.world)
    controller.decelerationRate = try #require(DecelerationRate(rawValue: 1 - 1e-12))
    card.drag(.began(at: near))
    let line = #line + 1
    let log = DiagnosticLog.capture { card.drag(.ended(velocity: CGPoint(x: 1e300, y: 0))) }
    #expect(log.count == 2, "the velocity held, then the projection")
    #expect(log.lines == [line, line])
    let release = try #require(controller.lastRelease)
    #expect(Double(release.velocity.x) == DynamicsWorld.maximumSpeed)
    #expect(Double(release.projectedPosition.x) == DynamicsWorld.maximumCoordinate)
    #expect(release.nearestSnapPoint == far)
    #expect(controller.snapPoint == far)
  }

  @Test("A snap spring of huge constants is reported with when it settles, and rests by then")
  func aSnapSpringOfHugeConstantsRestsWithinItsReportedDuration() throws {
    let virtual = VirtualWorld()
    let log = DiagnosticLog()
    // Mass times stiffness 1e300: a damping of 1 is a ratio of 5e-301, raised to 0.01.
    let spring = log.capture { DampedSpring(mass: 1e150, stiffness: 1e150, damping: 1) }
    #expect(log.count == 1)
    #expect(log.messages.first?.contains("settles within \(spring.settlingDuration) s") == true)
    let card = Card(at: CGPoint(x: 0, y: 0))
    card.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), snap: spring, world: virtual.world)
    card.drag(.began(at: .zero))
    card.drag(.ended(velocity: .zero))
    virtual.frames(Int((spring.settlingDuration * 60).rounded(.up)) + 2)
    #expect(!virtual.world.needsFrames, "at rest")
    #expect(abs(card.center.x - 100) <= 0.5)
  }
}

/// Bounds that cannot hold the home.
@MainActor @Suite("Snap points outside the bounds")
struct UnreachableSnapPointTests {
  @Test(
    "Bounds of zero size are a point or a track: a home outside is taken onto it and reported",
    arguments: [
      CGRect(x: 50, y: 50, width: 0, height: 0), CGRect(x: 50, y: 50, width: 100, height: 0),
      CGRect(x: 50, y: 50, width: 0, height: 100),
    ])
  func aHomeOutsideBoundsOfZeroSizeIsTakenOntoThem(bounds: CGRect) throws {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 50, y: 50))
    let home = CGPoint(x: 0, y: 0)
    let log = DiagnosticLog()
    let controller = log.capture {
      card.makeDraggable(snapPoint: home, bounds: bounds, world: virtual.world)
    }
    #expect(log.count == 1)
    #expect(log.messages.first?.contains("outside the bounds") == true)
    let rest = CGPoint(x: 50, y: 50)
    #expect(controller.snapPoints == [rest])
    #expect(controller.snapPoint == rest)
    card.drag(.began(at: rest))
    card.drag(.changed(to: CGPoint(x: 120, y: 90)))
    virtual.frames(3)
    let quiet = DiagnosticLog.capture {
      card.drag(.ended(velocity: .zero))
      virtual.settle()
    }
    #expect(quiet.count == 0, "nothing more to report: the home is where the card can rest")
    #expect(card.center == controller.snapPoint)
    #expect(!virtual.world.needsFrames)
  }

  @Test("A release decision outside the bounds is taken inside, reported at the caller")
  func aDecisionOutsideTheBoundsIsTakenInside() throws {
    let virtual = VirtualWorld()
    let card = Card(at: CGPoint(x: 0, y: 0))
    let bounds = CGRect(x: 0, y: 0, width: 200, height: 0)
    let controller = card.makeDraggable(bounds: bounds, world: virtual.world)
    controller.onRelease { _ in .snap(to: CGPoint(x: 900, y: 40)) }
    card.drag(.began(at: .zero))
    let line = #line + 1
    let log = DiagnosticLog.capture { card.drag(.ended(velocity: .zero)) }
    #expect(log.lines == [line])
    #expect(controller.snapPoint == CGPoint(x: 200, y: 0))
    virtual.settle()
    #expect(card.center == CGPoint(x: 200, y: 0))
  }
}
