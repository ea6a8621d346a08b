import Affix
import AffixLayout
import Testing

/// What a draft owns and what it lets go: its observed constant's listener lives and dies with
/// it, an inverted draft's with that one, and nothing of short-lived ones is left.
@MainActor @Suite struct OwnershipTests {
  @Test func aStateUpdateUpdatesTheConstant() {
    let model = Model()
    let stage = makeStage()
    let card = Card()
    card.pin.width(.observed(CardWidth.self, of: model)).height(10)
    stage.add(card)
    #expect(card.frame.width == 120)
    Associations(of: model)[CardWidth.self] = 200
    #expect(card.pin.drafts().first?.constant == 200)
    #expect(card.frame.width == 200)
  }

  @Test func releasingTheDraftCancelsItsListener() throws {
    let model = Model()
    let card = Card()
    card.pin.width(.observed(CardWidth.self, of: model))
    weak let draft = card.pin.drafts().first
    let listener = try #require(draft?.listener)
    #expect(!listener.isCancelled)
    draft?.remove()
    #expect(draft == nil)
    #expect(listener.isCancelled)
    Associations(of: model)[CardWidth.self] = 200  // reaches nothing
    #expect(card.pin.drafts().isEmpty)
  }

  @Test func anInvertedDraftsListenerCleansUpOnItsOwn() throws {
    let model = Model()
    let stage = makeStage()
    let first = Card()
    let second = Card()
    first.pin.leading(to: second, offset: .observed(CardWidth.self, of: model))
    weak let original = first.pin.drafts().first
    weak let inverse = original?.inverted()
    let originalListener = try #require(original?.listener)
    let inverseListener = try #require(inverse?.listener)
    #expect(inverse?.isInverted == true)
    #expect(inverse?.attribute == .trailing && inverse?.targetAttribute == .leading)
    #expect(inverse?.constant == -120)
    stage.add(first)
    stage.add(second)

    original?.remove()
    #expect(original == nil && originalListener.isCancelled)
    #expect(inverse != nil && !inverseListener.isCancelled)
    Associations(of: model)[CardWidth.self] = 50
    #expect(inverse?.constant == -50)
    #expect(second.frame.x == first.frame.x - 50)

    inverse?.remove()
    #expect(inverse == nil && inverseListener.isCancelled)
  }

  @Test func shortLivedStateDraftAndListenerLeaveNothingAlive() throws {
    weak var model: Model?
    weak var card: Card?
    weak var draft: LayoutDraft?
    var listener: CancellationToken?
    do {
      let liveModel = Model()
      let liveCard = Card()
      liveCard.pin.width(.observed(CardWidth.self, of: liveModel))
      model = liveModel
      card = liveCard
      draft = liveCard.pin.drafts().first
      listener = draft?.listener
      Associations(of: liveModel)[CardWidth.self] = 10
      #expect(draft?.constant == 10)
    }
    AssociationTable.sweep()
    #expect(model == nil)
    #expect(card == nil)
    #expect(draft == nil)
    #expect(try #require(listener).isCancelled)
  }

  @Test func theHostsDeathDropsItsDrafts() throws {
    let model = Model()
    weak var draft: LayoutDraft?
    var listener: CancellationToken?
    do {
      let card = Card()
      card.pin.width(.observed(CardWidth.self, of: model)).height(5).leading(to: Card())
      draft = card.pin.drafts().first
      listener = draft?.listener
    }
    AssociationTable.sweep()
    #expect(draft == nil)
    #expect(try #require(listener).isCancelled)
  }

  @Test func aDeadTargetLeavesTheDraftQuietlyWithoutEffect() {
    let stage = makeStage()
    let card = Card()
    do {
      let target = Card(frame: LayoutRect(x: 50, y: 0, width: 10, height: 10))
      card.pin.width(10).leading(to: target)
    }
    stage.add(card)
    #expect(card.frame == LayoutRect(x: 0, y: 0, width: 10, height: 0))
  }
}
