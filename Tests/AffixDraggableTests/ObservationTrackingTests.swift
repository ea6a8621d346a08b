import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Observation
import Synchronization
import Testing

@MainActor @Suite struct DragObservationTests {
  @Test func aTrackedIsDraggingIsToldAsADragBeginsAndEnds() {
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    let controller = card.makeDraggable(world: virtual.world)
    let begun = TrackedRead { controller.isDragging }
    card.drag(.began(at: .zero))
    #expect(begun.fired && controller.isDragging)
    let ended = TrackedRead { controller.isDragging }
    card.drag(.changed(to: CGPoint(x: 50, y: 0)))
    virtual.frames(3)
    #expect(!ended.fired)
    card.drag(.ended(velocity: .zero))
    #expect(ended.fired && !controller.isDragging)
  }

  @Test func aTrackedIsRestingIsToldAsTheBodyWakesAndSettles() {
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    let controller = card.makeDraggable(world: virtual.world)
    #expect(controller.isResting)
    let woken = TrackedRead { controller.isResting }
    card.drag(.began(at: .zero))
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    virtual.frames(3)
    #expect(woken.fired)
    card.drag(.ended(velocity: .zero))
    let settled = TrackedRead { controller.isResting }
    #expect(!controller.isResting)
    virtual.settle()
    #expect(settled.fired && controller.isResting)
    #expect(card.center == .zero)
  }

  @Test func aTrackedSnapPointIsToldWhenAReleaseChoosesAnotherDetent() {
    let virtual = VirtualWorld()
    let home = CGPoint.zero
    let away = CGPoint(x: 300, y: 0)
    let card = Card(at: home)
    let controller = card.makeDraggable(snapPoints: [home, away], world: virtual.world)
    let snapPoint = TrackedRead { controller.snapPoint }
    let release = TrackedRead { controller.lastRelease }
    card.drag(.began(at: home))
    card.drag(.changed(to: CGPoint(x: 280, y: 0)))
    virtual.frames(3)
    #expect(!snapPoint.fired)
    card.drag(.ended(velocity: .zero))
    #expect(snapPoint.fired && release.fired)
    #expect(controller.snapPoint == away)
  }

  @Test func aControllerWhoseStateWasNotReadTellsNothing() {
    let virtual = VirtualWorld()
    let read = Card(at: .zero)
    let unread = Card(at: CGPoint(x: 500, y: 0))
    let tracked = read.makeDraggable(world: virtual.world)
    unread.makeDraggable(world: virtual.world)
    let dragging = TrackedRead { tracked.isDragging }
    let resting = TrackedRead { tracked.isResting }
    unread.drag(.began(at: CGPoint(x: 500, y: 0)))
    unread.drag(.changed(to: CGPoint(x: 600, y: 0)))
    virtual.frames(3)
    unread.drag(.ended(velocity: .zero))
    virtual.settle()
    #expect(!dragging.fired && !resting.fired)
    // The tracking of the controller that was read is live all along.
    read.drag(.began(at: .zero))
    #expect(dragging.fired)
  }

  @Test func trackingKeepsNeitherTheHostNorItsControllerAlive() {
    let virtual = VirtualWorld()
    weak var weakHost: Card?
    weak var weakController: DragController?
    do {
      let card = Card(at: .zero)
      let controller = card.makeDraggable(world: virtual.world)
      weakHost = card
      weakController = controller
      // The first tracking shows that the reads take part; the second stays installed.
      let begun = TrackedRead { controller.isDragging }
      card.drag(.began(at: .zero))
      #expect(begun.fired)
      _ = TrackedRead { (controller.isDragging, controller.isResting, controller.snapPoint) }
      card.drag(.ended(velocity: .zero))
      virtual.settle()
      _ = TrackedRead { (controller.isDragging, controller.isResting, controller.snapPoint) }
    }
    _ = AssociationTable.sweep()
    virtual.frames(1)
    #expect(isDeallocated { weakHost })
    #expect(isDeallocated { weakController })
  }

  // Without a change told, the wait for the next value would never end.
  @Test(.timeLimit(.minutes(1)))
  func observationsFollowTheDrag() async {
    guard #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) else { return }
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    let controller = card.makeDraggable(world: virtual.world)
    var dragging = Observations { controller.isDragging }.makeAsyncIterator()
    #expect(await dragging.next() == false)
    card.drag(.began(at: .zero))
    #expect(await dragging.next() == true)
    card.drag(.ended(velocity: .zero))
    #expect(await dragging.next() == false)
  }
}
