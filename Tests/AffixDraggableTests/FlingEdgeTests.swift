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
