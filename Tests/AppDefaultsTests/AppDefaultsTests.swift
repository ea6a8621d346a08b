import Affix
import AffixDancing
import AffixDraggable
import AffixLayout
import AffixLoading
import AffixScheduling
import AffixTestSupport
import AffixTooltip
import Foundation
import Testing

// This target is built as a new app target is: every declaration on the main actor unless it
// says otherwise (`defaultIsolation(MainActor.self)`), nonisolated async functions running in
// their caller's isolation, and conformances of main-actor types inferred to be main-actor
// isolated. Nothing below is marked: no `@MainActor`, no isolated conformance spelled, no
// `Sendable`. The hosts, their values and the keys are an app's as written.

final class CardView {
  var center = CGPoint(x: 160, y: 240)
  var alpha = 1.0
  var isHidden = false
  var isTooltipShown = false
  var log: [String] = []
  let tipClock = VirtualClock()
}

extension CardView: Dancing, Draggable, Tooltipped {
  var tooltipClock: any SchedulingClock { tipClock }
}

/// A node of an app's: the conformance is inferred main-actor, as the rest.
final class Tile: LayoutNode {
  var frame = LayoutRect.zero
}

enum TileWidth: ObservableKey {
  typealias Value = Double
  static var defaultValue: Double { 40 }
}

/// A model an app keeps beside a view: a plain class, on the main actor by default, and so
/// `Sendable`, which an associated value must be.
final class CardModel {
  var taps = 0
}

enum CardModelKey: AssociatedKey {
  typealias Value = CardModel?
}

enum CardTitle: ObservableKey {
  typealias Value = String?
}

extension CardView {
  var model: CardModel? {
    get { Associations(of: self)[CardModelKey.self] }
    set { Associations(of: self)[CardModelKey.self] = newValue }
  }

  var title: String? {
    get { Associations(of: self)[CardTitle.self] }
    set { Associations(of: self)[CardTitle.self] = newValue }
  }
}

final class Badge: LoadingIndicator {
  var shown: [String?] = []
  var outcome: LoadingOutcome?
  var wasOnTheMainQueue = true
  private var appearance: CheckedContinuation<Void, Never>?

  func appear(message: String?) {
    wasOnTheMainQueue = wasOnTheMainQueue && isOnMainQueue()
    shown.append(message)
    appearance?.resume()
    appearance = nil
  }

  /// Returns once the badge is on screen.
  func appeared() async {
    guard shown.isEmpty else { return }
    await withCheckedContinuation { appearance = $0 }
  }

  func disappear(outcome: LoadingOutcome) {
    wasOnTheMainQueue = wasOnTheMainQueue && isOnMainQueue()
    self.outcome = outcome
  }
}

final class ImportView: Loading {
  let badge = Badge()
  var loadingOptions: LoadingOptions { LoadingOptions(graceTime: .zero) }
  func makeLoadingIndicator() -> any LoadingIndicator { badge }
}

@Suite struct AppDefaultsTests {
  @Test func aViewKeepsAPlainModelAndAnObservableTitle() {
    let card = CardView()
    card.model = CardModel()
    card.model?.taps += 1
    var told: [String?] = []
    let token = Associations(of: card).observe(CardTitle.self) { told.append($0) }
    card.title = "Inbox"
    token.cancel()
    card.title = "Archive"
    #expect(card.model?.taps == 1)
    #expect(told == ["Inbox"])
    #expect(card.title == "Archive")
  }

  @Test func aViewDancesAndItsCompletionTouchesItOnTheMainQueue() async {
    let card = CardView()
    let ending = await card.dance.animate(duration: 0.05, curve: .easeOut) { $0.alpha = 0 }
      .addCompletion { position in
        card.isHidden = isOnMainQueue()
        card.log.append("completion at \(position)")
      }
      .start()
      .ended()
    #expect(ending == .end)
    #expect(card.alpha == 0 && card.isHidden)
    #expect(card.log == ["completion at end"])
  }

  @Test func aViewIsDraggedAndSnapsBack() async {
    let card = CardView()
    card.makeDraggable(snap: .snap(damping: 0.7))
    card.drag(.began(at: CGPoint(x: 170, y: 250)))
    card.drag(.changed(to: CGPoint(x: 260, y: 300)))
    card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
    await card.dragSettled()
    #expect(abs(card.center.x - 160) < 1 && abs(card.center.y - 240) < 1)
    card.removeDraggable()
  }

  @Test func aViewLoadsWithAnIndicatorThatTouchesIt() async {
    let view = ImportView()
    let imported = await view.withLoading(message: "Importing") {
      await view.badge.appeared()
      return 2
    }
    await view.loadingSettled()
    #expect(imported == 2)
    #expect(view.badge.shown == ["Importing"])
    #expect(view.badge.outcome == .success)
    #expect(view.badge.wasOnTheMainQueue)
  }

  @Test func aViewShowsItsTooltipAfterTheDelayOnItsClock() async {
    let card = CardView()
    card.pointerEntered()
    // The clock runs here, on the main actor: the tooltip is written at once.
    card.tipClock.advance(by: TooltipTiming.standard.showDelay - .milliseconds(1))
    #expect(!card.isTooltipShown)
    card.tipClock.advance(by: .milliseconds(1))
    #expect(card.isTooltipShown)
    card.pointerExited()
    card.tipClock.advance(by: TooltipTiming.standard.hideDelay)
    await card.tooltipSettled()
    #expect(!card.isTooltipShown)
  }

  @Test func aTileOfTheAppsIsPinnedBeforeItHasAStageAndFollowsAValue() {
    let model = CardModel()
    let stage = LayoutContainer(frame: LayoutRect(width: 200, height: 100))
    let header = Tile()
    let tile = Tile()
    tile.pin.width(.observed(TileWidth.self, of: model)).height(10).top(to: .tag(1))
    header.pin.tag(1).height(20).top(5)
    stage.add(tile)
    stage.add(header)
    #expect(tile.frame == LayoutRect(x: 0, y: 25, width: 40, height: 10))
    Associations(of: model)[TileWidth.self] = 90
    #expect(tile.frame.width == 90)
  }
}
