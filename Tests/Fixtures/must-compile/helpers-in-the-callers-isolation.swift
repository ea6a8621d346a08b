// also with: -enable-upcoming-feature NonisolatedNonsendingByDefault
// Helpers that an actor calls to drive its own non-Sendable hosts, in the actor's isolation,
// spelled both ways: taking the caller's isolation as a parameter of their own (`isolated (any
// Actor) = #isolation`) and handing it on, or written `nonisolated(nonsending)` (every
// nonisolated async function under NonisolatedNonsendingByDefault), whose `#isolation` is the
// caller's actor, known at run time, which every API's optional isolation parameter takes.
// Compiled again with that feature on (the line above).
import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixTooltip
import Foundation

final class Lamp: Dancing {
  var brightness = 1.0
}

final class Card: Draggable {
  var center = CGPoint(x: 0, y: 0)
}

final class Importer: Loading {
  let indicator = RecordingIndicator()
  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
}

final class Button: Tooltipped {
  var isTooltipShown = false
}

final class Model: Sendable {}

enum Selection: AssociatedKey {
  typealias Value = Int
  static var defaultValue: Int { 0 }
}

func dim(_ lamp: Lamp, isolation: isolated (any Actor) = #isolation) async {
  lamp.dance.animate(duration: 1) { $0.brightness = 0 }.start()
  _ = await lamp.dance.ended()
}

func drag(_ card: Card, isolation: isolated (any Actor) = #isolation) async {
  card.makeDraggable().onRelease { _ in .snapToNearest }
  await card.dragController?.settled()
}

func load(_ importer: Importer, isolation: isolated (any Actor) = #isolation) async {
  importer.startLoading(message: "Importing")
  await importer.loadingSettled()
}

func hover(_ button: Button, isolation: isolated (any Actor) = #isolation) async {
  button.pointerEntered()
  await button.tooltipSettled()
}

func watch(
  _ model: Model, _ seen: Counter, isolation: isolated (any Actor) = #isolation
) -> CancellationToken {
  Associations(of: model).observe(Selection.self) { seen.value = $0 }
}

func callback(_ seen: Counter, isolation: isolated (any Actor) = #isolation) -> IsolatedCallback<
  Int
> {
  IsolatedCallback { seen.value = $0 }
}

nonisolated(nonsending) func dimInPassing(_ lamp: Lamp) async {
  // A `let` first: Swift 6.3's region checker stops at `animate { ... }.start()` chained here.
  let dimming = lamp.dance.animate(duration: 1) { $0.brightness = 0 }
  dimming.start()
  _ = await lamp.dance.ended()
}

nonisolated(nonsending) func dragInPassing(_ card: Card) async {
  card.makeDraggable().onRelease { _ in .snapToNearest }
  card.drag(.began(at: .zero))
  await card.dragController?.settled()
}

nonisolated(nonsending) func loadInPassing(_ importer: Importer) async {
  importer.startLoading(message: "Importing")
  await importer.loadingSettled()
}

nonisolated(nonsending) func hoverInPassing(_ button: Button) async {
  button.pointerEntered()
  await button.tooltipSettled()
}

nonisolated(nonsending) func watchInPassing(_ model: Model, _ seen: Counter) async
  -> CancellationToken
{
  Associations(of: model).observe(Selection.self) { seen.value = $0 }
}

nonisolated(nonsending) func callInPassing(_ seen: Counter) async {
  let callback = IsolatedCallback<Int> { seen.value = $0 }
  callback(1)
  await callback.delivered()
}

nonisolated(nonsending) func boundInPassing(_ seen: Counter) async -> IsolationBound<Counter> {
  let bound = IsolationBound(Counter())
  bound.withValue { $0.value = seen.value }
  return bound
}

/// Non-`Sendable` state of the actor that the observer and the callback write.
final class Counter {
  var value = 0
}

actor Studio {
  private let lamp = Lamp()
  private let card = Card()
  private let importer = Importer()
  private let button = Button()
  private let seen = Counter()
  private var token: CancellationToken?

  func run(_ model: Model) async {
    await dim(lamp)
    await drag(card)
    await load(importer)
    await hover(button)
    token = watch(model, seen)
    callback(seen)(1)
    await dimInPassing(lamp)
    await dragInPassing(card)
    await loadInPassing(importer)
    await hoverInPassing(button)
    token = await watchInPassing(model, seen)
    await callInPassing(seen)
    _ = await boundInPassing(seen)
  }
}

@MainActor final class Screen {
  let lamp = Lamp()
  let seen = Counter()

  func run(_ model: Model) async {
    await dim(lamp)
    _ = watch(model, seen)
    await dimInPassing(lamp)
    _ = await watchInPassing(model, seen)
  }
}
