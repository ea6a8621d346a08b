import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

private let left = CGPoint(x: 0, y: 0)
private let middle = CGPoint(x: 300, y: 0)
private let right = CGPoint(x: 600, y: 0)

/// An actor that release handlers may be written on.
private actor Referee {
  func install(on controller: DragController) {
    controller.onRelease { _ in .snap(to: right) }
  }
}

@MainActor @Suite("Detents, flings and release handlers")
struct DetentTests {
  /// A card on three detents, grabbed at `left` and dragged to `x`.
  private func cardOnDetents(draggedTo x: Double, in virtual: VirtualWorld) -> Card {
    let card = Card(at: left)
    card.makeDraggable(
      snapPoints: [left, middle, right], snap: .snap(damping: 1), world: virtual.world)
    card.drag(.began(at: left))
    card.drag(.changed(to: CGPoint(x: x, y: 0)))
    virtual.frames(1)
    return card
  }

  @Test("The projection is UIScrollView's: v / 1000 × r / (1 - r)")
  func projectionMatchesTheClosedForm() {
    let normal = DecelerationRate.normal
    #expect(normal.rawValue == 0.998)
    #expect(DecelerationRate.fast.rawValue == 0.99)
    #expect(abs(normal.projection(of: 1_000) - 499) < 1e-9)
    #expect(abs(DecelerationRate.fast.projection(of: -1_000) - -99) < 1e-9)
    let vector = normal.projection(of: CGPoint(x: 500, y: -2_000))
    #expect(abs(vector.x - 249.5) < 1e-9 && abs(vector.y - -998) < 1e-9)
  }

  @Test("Dropped slowly, the object snaps to the nearest detent")
  func slowDropSnapsToNearest() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    card.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(card.center == middle)
    #expect(card.dragController?.snapPoint == middle)
  }

  @Test("A fling reaches the detent nearest its projected landing point, not the nearest one")
  func flingSnapsToProjectedDetent() throws {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    // Projected: 200 + 600 / 1000 × 0.998 / 0.002 = 499.4, nearer `right` than `middle`.
    card.drag(.ended(velocity: CGPoint(x: 600, y: 0)))
    let release = try #require(card.dragController?.lastRelease)
    #expect(release.position == CGPoint(x: 200, y: 0))
    #expect(release.velocity == CGPoint(x: 600, y: 0))
    #expect(abs(Double(release.projectedPosition.x) - 499.4) < 1e-9)
    #expect(release.nearestSnapPoint == right)
    #expect(release.previousSnapPoint == left)
    #expect(card.dragController?.body.velocity == CGPoint(x: 600, y: 0), "the fling is carried")
    virtual.settle()
    #expect(card.center == right)
  }

  @Test("The fling is carried into the snap: the first frame moves as fast as the throw")
  func flingVelocityCarriesIntoTheSnap() {
    func firstFrame(_ velocity: Double) -> Double {
      let virtual = VirtualWorld()
      let card = cardOnDetents(draggedTo: 200, in: virtual)
      card.drag(.ended(velocity: CGPoint(x: velocity, y: 0)))
      virtual.frames(1)
      return Double(card.center.x) - 200
    }
    // Both throws land on `right`; the faster one covers more of the way in the first frame,
    // by about the difference in speed times the frame.
    let slow = firstFrame(600)
    let fast = firstFrame(1_200)
    #expect(abs((fast - slow) - 600.0 / 60) < 2)
  }

  @Test("A release handler chooses the target: thrown hard, the card is dismissed off screen")
  func handlerChoosesTarget() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    let offscreen = CGPoint(x: 2_000, y: 0)
    var seen: [DragRelease] = []
    card.dragController?.onRelease { release in
      seen.append(release)
      return release.velocity.x > 1_500 ? .snap(to: offscreen) : .snapToNearest
    }
    card.drag(.ended(velocity: CGPoint(x: 2_000, y: 0)))
    #expect(seen.count == 1, "decided before drag(_:) returned")
    virtual.settle()
    #expect(card.center == offscreen)
    #expect(card.dragController?.snapPoint == offscreen)
  }

  @Test("A release handler can veto the move: the card snaps back to the detent it left")
  func handlerVetoes() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 280, in: virtual)
    card.dragController?.onRelease { _ in .snapBack }
    card.drag(.ended(velocity: CGPoint(x: 100, y: 0)))
    virtual.settle()
    #expect(card.center == left)
  }

  @Test("Handed off, the body lets go where it was released and the world stops moving it")
  func handOffLeavesTheObjectToTheApp() throws {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    let controller = try #require(card.dragController)
    controller.onRelease { _ in .handOff }
    card.drag(.ended(velocity: CGPoint(x: 900, y: -300)))
    #expect(controller.body.behavior == nil)
    #expect(controller.lastRelease?.velocity == CGPoint(x: 900, y: -300))
    virtual.frames(2)
    #expect(card.center == CGPoint(x: 200, y: 0))
    #expect(!virtual.world.needsFrames)
    // The app moves the card; the next drag starts from where the app left it.
    controller.onRelease { _ in .snapToNearest }
    card.center = CGPoint(x: 470, y: 10)
    card.drag(.began(at: CGPoint(x: 470, y: 10)))
    card.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(card.center == right)
  }

  @Test("Cancelled gestures snap back to the detent they left without asking the handler")
  func cancelledSnapsBackWithoutHandler() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 290, in: virtual)
    var asked = false
    card.dragController?.onRelease { _ in
      asked = true
      return .snapToNearest
    }
    card.drag(.cancelled)
    virtual.settle()
    #expect(!asked)
    #expect(card.center == left)
  }

  @Test("A handler on another actor decides later; the body holds still until it has")
  func handlerOnAnotherActorDecidesLater() async {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    let controller = card.dragController!  // made just above
    let referee = Referee()
    await referee.install(on: controller)
    card.drag(.ended(velocity: .zero))
    #expect(await eventually { controller.snapPoint == right })
    virtual.settle()
    #expect(card.center == right)
    withExtendedLifetime(referee) {}
  }

  @Test("Snap points are validated; setting them while snapping retargets to the nearest")
  func snapPointsAreValidated() {
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    var controller: DragController?
    let log = DiagnosticLog.capture {
      controller = card.makeDraggable(
        snapPoints: [CGPoint(x: Double.nan, y: 0), middle], world: virtual.world)
    }
    #expect(log.messages.count == 1)
    #expect(controller?.snapPoints == [middle])
    let empty = DiagnosticLog.capture { controller?.snapPoints = [] }
    #expect(empty.messages.count == 1)
    #expect(controller?.snapPoints == [middle])
    #expect(DecelerationRate(rawValue: 1) == nil, "a rate that never stops cannot be made")
    let none = DiagnosticLog.capture {
      Card(at: CGPoint(x: 7, y: 8)).makeDraggable(snapPoints: [], world: virtual.world)
    }
    #expect(none.messages.count == 1)

    card.drag(.began(at: .zero))
    card.drag(.ended(velocity: .zero))
    virtual.frames(3)
    controller?.snapPoints = [CGPoint(x: -100, y: 0), right]
    #expect(controller?.snapPoint == right, "600 is nearer the old target, 300, than -100")
    virtual.settle()
    #expect(card.center == right)
  }

  @Test("A non-finite target from a handler is reported and the nearest detent used")
  func nonFiniteDecisionIsReported() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 250, in: virtual)
    card.dragController?.onRelease { _ in .snap(to: CGPoint(x: Double.infinity, y: 0)) }
    let log = DiagnosticLog.capture { card.drag(.ended(velocity: .zero)) }
    #expect(log.messages.count == 1)
    virtual.settle()
    #expect(card.center == middle)
  }

  @Test("A release gives the fling's speed along a path, for a hand-off to an animation")
  func releaseSpeedTowardsATarget() {
    let release = DragRelease(
      position: .zero, velocity: CGPoint(x: 300, y: 400), projectedPosition: .zero,
      nearestSnapPoint: .zero, previousSnapPoint: .zero)
    #expect(abs(release.speed(towards: CGPoint(x: 30, y: 40)) - 500) < 1e-9)
    #expect(abs(release.speed(towards: CGPoint(x: 100, y: 0)) - 300) < 1e-9)
    #expect(abs(release.speed(towards: CGPoint(x: -100, y: 0)) - -300) < 1e-9)
    #expect(release.speed(towards: .zero) == 0)
    #expect(release.distance(to: CGPoint(x: 30, y: 40)) == 50)
  }

  @Test("A handler written on the main actor decides at once for drags that come from there")
  func mainActorHandlerDecidesInline() {
    let virtual = VirtualWorld()
    let card = cardOnDetents(draggedTo: 200, in: virtual)
    var decided = 0  // main-actor state
    card.dragController?.onRelease { _ in
      MainActor.assertIsolated()
      decided += 1
      return .snapBack
    }
    card.drag(.ended(velocity: .zero))
    #expect(decided == 1)
    #expect(card.dragController?.snapPoint == left)
  }
}
