import AffixDancing
import AffixDraggable
import AffixMotion
import AffixScheduling
import Foundation
import Synchronization

/// The same throw, moved once by the dynamics world's snap and once handed off to a Dancing
/// spring, on one virtual clock: the two paths agree, because the hand-off turns the fling's
/// points per second into the spring's unit-space velocity.
enum HandOff {
  /// Both paths, one position a frame from the release.
  struct Comparison {
    var snapped: [CGPoint]
    var danced: [CGPoint]
    /// The fling along the path, in points per second, and over the distance.
    var speed: Double
    var unitVelocity: Double

    /// The largest distance between the two paths at the same frame, in points.
    var largestGap: Double {
      zip(snapped, danced).map { a, b in
        let (dx, dy) = (Double(a.x - b.x), Double(a.y - b.y))
        return (dx * dx + dy * dy).squareRoot()
      }.max() ?? 0
    }
  }

  static let start = CGPoint(x: 20, y: 30)
  static let target = CGPoint(x: 100, y: 30)
  static let fling = CGPoint(x: 420, y: 0)
  static let damping = 0.35

  /// Throws two cards from ``start`` towards ``target`` at ``fling`` and records both.
  @MainActor static func compare(frames: Int = 180) -> Comparison {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let world = DynamicsWorld(frames: clock)

    let snappedCard = DraggedCard(center: start, clock: clock)
    snappedCard.makeDraggable(snapPoints: [target], snap: .snap(damping: damping), world: world)
    snappedCard.drag(.began(at: start))
    snappedCard.drag(.ended(velocity: fling))

    let dancedCard = DraggedCard(center: start, clock: clock)
    let controller = dancedCard.makeDraggable(snapPoints: [start], world: world)
      .onRelease { _ in .handOff }
    dancedCard.drag(.began(at: start))
    dancedCard.drag(.ended(velocity: fling))
    let release =
      controller.lastRelease
      ?? DragRelease(
        position: start, velocity: fling, projectedPosition: start, nearestSnapPoint: start,
        previousSnapPoint: start)
    let speed = release.speed(towards: target)
    let unitVelocity = spring(for: release).initialVelocity
    dancedCard.dance.animate(duration: 1, timingParameters: .spring(spring(for: release))) {
      $0.center = target
    }.start()

    var snapped: [CGPoint] = []
    var danced: [CGPoint] = []
    for _ in 0..<frames {
      scheduler.advance(by: clock.interval)
      snapped.append(snappedCard.center)
      danced.append(dancedCard.center)
    }
    return Comparison(
      snapped: snapped, danced: danced, speed: speed, unitVelocity: unitVelocity)
  }

  /// The Dancing spring that moves a card as the world's snap would: the snap's own spring,
  /// starting with the fling.
  static func spring(for release: DragRelease) -> DampedSpring {
    // The spring runs in unit space, 0 to 1 over the distance: the fling along the path,
    // over the distance, is the fraction of the distance per second.
    let unitVelocity = DampedSpring.unitVelocity(
      pointsPerSecond: release.speed(towards: target), distance: release.distance(to: target))
    return DampedSpring.snap(damping: damping).withInitialVelocity(unitVelocity)
  }
}
