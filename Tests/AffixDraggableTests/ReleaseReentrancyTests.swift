import Affix
import AffixDraggable
import AffixMotion
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

private let home = CGPoint(x: 0, y: 0)
private let away = CGPoint(x: 300, y: 0)

/// Release handlers that call back into the drag they decide for, or into another card's.
@MainActor @Suite("Release handlers that re-enter the drag")
struct ReleaseReentrancyTests {
  /// A card at `home`, grabbed there and dragged to `x`.
  private func grabbedCard(
    snapPoints: [CGPoint] = [home, away], draggedTo x: Double, in virtual: VirtualWorld
  ) -> Card {
    let card = Card(at: home)
    card.makeDraggable(snapPoints: snapPoints, snap: .snap(damping: 1), world: virtual.world)
    card.drag(.began(at: home))
    card.drag(.changed(to: CGPoint(x: x, y: 0)))
    virtual.frames(1)
    return card
  }

  @Test("A handler that drags its own card again: the later drag wins, nothing traps")
  func aHandlerThatDragsItsOwnCardAgain() {
    let virtual = VirtualWorld()
    let card = grabbedCard(draggedTo: 50, in: virtual)
    var calls = 0
    card.dragController?.onRelease { [weak card] _ in
      calls += 1
      if calls == 1 {
        card?.drag(.began(at: CGPoint(x: 50, y: 0)))
        card?.drag(.changed(to: CGPoint(x: 280, y: 0)))
        card?.drag(.ended(velocity: .zero))
      }
      return .snap(to: CGPoint(x: -500, y: 0))
    }
    card.drag(.ended(velocity: .zero))
    #expect(calls == 2)
    virtual.settle()
    // The inner drag's decision acts; the outer one, for a drag that is over, is dropped.
    #expect(card.center == CGPoint(x: -500, y: 0))
    #expect(card.dragController?.isDragging == false)
  }

  @Test("Two cards whose release handlers drag each other both settle, nothing traps")
  func twoCardsWhoseHandlersDragEachOther() {
    let virtual = VirtualWorld()
    let first = grabbedCard(draggedTo: 60, in: virtual)
    let second = Card(at: home)
    second.makeDraggable(snapPoints: [home, away], snap: .snap(damping: 1), world: virtual.world)
    var rounds = 0
    first.dragController?.onRelease { [weak second] _ in
      rounds += 1
      if rounds < 4 {
        second?.drag(.began(at: home))
        second?.drag(.changed(to: CGPoint(x: 250, y: 0)))
        second?.drag(.ended(velocity: CGPoint(x: 1_000, y: 0)))
      }
      return .snapToNearest
    }
    second.dragController?.onRelease { [weak first] _ in
      rounds += 1
      if rounds < 4 {
        first?.drag(.began(at: CGPoint(x: 60, y: 0)))
        first?.drag(.changed(to: CGPoint(x: 260, y: 0)))
        first?.drag(.ended(velocity: CGPoint(x: 1_000, y: 0)))
      }
      return .snapToNearest
    }
    first.drag(.ended(velocity: .zero))
    #expect(rounds == 4)
    virtual.settle()
    #expect(first.center == away)
    #expect(second.center == away)
    #expect(first.dragController?.isDragging == false)
    #expect(second.dragController?.isDragging == false)
  }

  @Test("A handler that sets new snap points and snaps to the nearest lands on one of them")
  func aHandlerThatSetsSnapPointsSnapsToTheNewOnes() throws {
    let virtual = VirtualWorld()
    let card = grabbedCard(draggedTo: 280, in: virtual)
    let controller = try #require(card.dragController)
    let lower = CGPoint(x: 0, y: 500)
    let upper = CGPoint(x: 0, y: -500)
    controller.onRelease { [weak controller] _ in
      controller?.snapPoints = [lower, upper]
      return .snapToNearest
    }
    card.drag(.ended(velocity: .zero))
    #expect(controller.snapPoints == [lower, upper])
    #expect(controller.snapPoints.contains(controller.snapPoint))
    virtual.settle()
    #expect(card.center == controller.snapPoint)
  }

  @Test("A handler that sets new snap points and snaps back goes to the snap point as it is")
  func aHandlerThatSetsSnapPointsSnapsBackToTheCurrentOne() throws {
    let virtual = VirtualWorld()
    let card = grabbedCard(draggedTo: 280, in: virtual)
    let controller = try #require(card.dragController)
    let other = CGPoint(x: 0, y: 500)
    controller.onRelease { [weak controller] _ in
      controller?.snapPoints = [other]
      return .snapBack
    }
    card.drag(.ended(velocity: .zero))
    #expect(controller.snapPoint == other)
    virtual.settle()
    #expect(card.center == other)
  }

  @Test("A handler that makes the card draggable anew: the old controller is dropped, reported")
  func aHandlerThatMakesTheCardDraggableAgain() throws {
    let virtual = VirtualWorld()
    let card = grabbedCard(draggedTo: 120, in: virtual)
    let old = try #require(card.dragController)
    old.onRelease { [weak card] _ in
      card?.makeDraggable(snapPoint: CGPoint(x: 0, y: 400), world: virtual.world)
      return .snap(to: away)
    }
    let line = #line + 1
    let log = DiagnosticLog.capture { card.drag(.ended(velocity: .zero)) }
    #expect(log.lines == [line])
    #expect(log.fileIDs == [#fileID])
    #expect(old.body.isRemoved)
    let new = try #require(card.dragController)
    #expect(new !== old)
    // The old controller's decision is not acted on: its body stays out of the world, and
    // the new one holds the card where it was let go.
    #expect(old.snapPoint != away)
    virtual.settle()
    #expect(card.center == CGPoint(x: 120, y: 0))
    card.drag(.began(at: CGPoint(x: 120, y: 0)))
    card.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(card.center == CGPoint(x: 0, y: 400))
  }

  @Test("A handler that removes the drag: its decision is dropped and reported at the caller")
  func aHandlerThatRemovesTheDrag() throws {
    let virtual = VirtualWorld()
    let card = grabbedCard(draggedTo: 120, in: virtual)
    card.dragController?.onRelease { [weak card] _ in
      card?.removeDraggable()
      return .snapToNearest
    }
    let line = #line + 1
    let log = DiagnosticLog.capture { card.drag(.ended(velocity: .zero)) }
    #expect(log.lines == [line])
    #expect(!card.isDraggable)
    virtual.settle()
    #expect(card.center == CGPoint(x: 120, y: 0))
  }
}
