import Affix
import AffixLayout
import AffixTestSupport
import Testing

@MainActor @Suite struct DraftTests {
  @Test func draftsWaitUntilTheNodeJoinsAContainer() {
    let card = Card(frame: LayoutRect(x: 1, y: 2, width: 3, height: 4))
    card.pin.width(30).height(20).centerInParent()
    #expect(card.frame == LayoutRect(x: 1, y: 2, width: 3, height: 4))
    #expect(card.pin.drafts().map(\.group) == [.own, .own, .parent, .parent])
    #expect(card.pin.drafts().allSatisfy { !$0.isActive })
    let stage = makeStage()
    stage.add(card)
    #expect(card.frame == LayoutRect(x: 145, y: 90, width: 30, height: 20))
    #expect(card.pin.drafts().allSatisfy { $0.isActive && $0.activationCount == 1 })
  }

  @Test func aNodePinnedToAnotherFollowsIt() {
    let stage = makeStage()
    let first = Card()
    let second = Card()
    first.pin.width(50).height(10).leading(8).top(4)
    second.pin.width(20).height(10).leading(to: first, offset: 6).top(to: first)
    stage.add(first)
    stage.add(second)
    #expect(second.frame == LayoutRect(x: 64, y: 14, width: 20, height: 10))
  }

  @Test func theOrderOfDeclarationDoesNotMatterForOtherNodes() {
    let stage = makeStage()
    let first = Card()
    let second = Card()
    second.pin.width(20).height(10).leading(to: first)
    first.pin.width(50).height(10).leading(8)
    stage.add(second)  // its target is not there yet
    #expect(second.frame.x == 0)
    stage.add(first)
    #expect(second.frame.x == 58)
  }

  @Test func theGroupsApplyInOrderWhateverTheOrderOfTheCalls() {
    let stage = makeStage()
    let anchor = Card()
    anchor.pin.width(40).height(10).leading(100)
    let card = Card()
    // Declared others, parent, own: applied own, parent, others, so the others win.
    card.pin.leading(to: anchor).leading(5).width(10)
    stage.add(anchor)
    stage.add(card)
    #expect(card.frame.x == 140)
    #expect(card.frame.width == 10)
  }

  @Test func aTagNamesANodeInEitherOrder() {
    let stage = makeStage()
    let header = Card()
    header.pin.tag(7).width(100).height(30).top(10)
    let label = Card()
    label.pin.width(40).height(10).top(to: .tag(7), offset: 2)
    stage.add(header)
    stage.add(label)
    #expect(label.frame.y == 42)

    let other = makeStage()
    let late = Card()
    late.pin.width(40).height(10).top(to: .tag(3), offset: 2)
    let tagged = Card()
    tagged.pin.tag(3).height(20).top(30)
    other.add(late)
    other.add(tagged)
    #expect(late.frame.y == 52)
  }

  @Test func aContainerNestsInAContainer() {
    let outer = makeStage()
    let inner = LayoutContainer()
    inner.pin.width(100).height(100).centerInParent()
    let card = Card()
    card.pin.width(10).height(10).centerInParent()
    inner.add(card)
    outer.add(inner)
    #expect(inner.frame == LayoutRect(x: 110, y: 50, width: 100, height: 100))
    #expect(card.frame == LayoutRect(x: 45, y: 45, width: 10, height: 10))
  }

  @Test func aResizedContainerLaysItsChildrenOutAgain() {
    let stage = makeStage()
    let card = Card()
    card.pin.width(20).height(20).centerInParent()
    stage.add(card)
    stage.frame.width = 100
    #expect(card.frame.x == 40)
  }

  @Test func aRemovedDraftNoLongerApplies() {
    let stage = makeStage()
    let card = Card()
    card.pin.width(20).height(20).leading(30)
    stage.add(card)
    #expect(card.frame.x == 30)
    card.pin.drafts().last?.remove()
    card.pin.leading(5)
    #expect(card.frame.x == 5)
    #expect(card.pin.drafts().count == 3)
  }
}

@MainActor @Suite struct ActivationTests {
  @Test func aDraftIsActivatedOnceWhateverTheContainersItJoins() {
    let first = makeStage()
    let second = makeStage(width: 100, height: 100)
    let card = Card()
    card.pin.width(20).height(20).centerInParent()
    first.add(card)
    first.remove(card)
    second.add(card)
    #expect(card.pin.drafts().allSatisfy { $0.activationCount == 1 })
    #expect(card.frame == LayoutRect(x: 40, y: 40, width: 20, height: 20))
    #expect(!first.contains(card) && second.contains(card))
  }

  @Test func aDraftMadeAfterTheJoinIsActivatedAtOnce() {
    let stage = makeStage()
    let card = Card()
    stage.add(card)
    card.pin.width(20).leading(7)
    #expect(card.pin.drafts().allSatisfy { $0.activationCount == 1 })
    #expect(card.frame.x == 7 && card.frame.width == 20)
  }

  @Test func aTargetThatAppearsLaterIsAttachedToThen() {
    let stage = makeStage()
    let cards = (0..<3).map { _ in Card() }
    for card in cards { card.pin.width(10).height(10).top(to: .tag(1), offset: 4) }
    for card in cards { stage.add(card) }
    #expect(cards.allSatisfy { $0.frame.y == 0 })
    let header = Card()
    header.pin.height(30).top(12)
    stage.add(header)
    #expect(cards.allSatisfy { $0.frame.y == 0 })
    header.pin.tag(1)  // tagged after it joined
    #expect(cards.allSatisfy { $0.frame.y == 46 })
  }

  @Test func aNodeAddedToAnotherContainerLeavesTheFirst() {
    let first = makeStage()
    let second = makeStage()
    let card = Card()
    first.add(card)
    second.add(card)
    #expect(first.count == 0 && second.count == 1)
  }
}

@MainActor @Suite struct MomentTests {
  @Test func joiningAContainerIsTheNodesMoment() {
    let stage = makeStage()
    let card = Card()
    card.pin.width(10)
    #expect(Associations(of: card).pendingWorkCount(for: JoinedContainer.self) == 1)
    #expect(!Associations(of: card).hasReached(JoinedContainer.self))
    stage.add(card)
    #expect(Associations(of: card).hasReached(JoinedContainer.self))
    stage.remove(card)
    #expect(!Associations(of: card).hasReached(JoinedContainer.self))
  }

  @Test func workOfTheUsersForTheMomentSeesTheDraftsApplied() {
    let stage = makeStage()
    let card = Card()
    card.pin.width(20).height(20).centerInParent()
    var seen: [LayoutRect] = []
    Associations(of: card).whenReached(JoinedContainer.self) { seen.append(card.frame) }
    stage.add(card)
    #expect(seen == [LayoutRect(x: 150, y: 90, width: 20, height: 20)])
  }

  @Test func aContainersDeathLetsItsChildrenJoinAnother() {
    let card = Card()
    do {
      let first = makeStage()
      first.add(card)
    }
    #expect(!Associations(of: card).hasReached(JoinedContainer.self))
    card.pin.width(30).leading(3)
    let second = makeStage()
    second.add(card)
    #expect(card.frame.x == 3 && card.frame.width == 30)
    #expect(card.pin.drafts().allSatisfy { $0.activationCount == 1 })
  }
}
