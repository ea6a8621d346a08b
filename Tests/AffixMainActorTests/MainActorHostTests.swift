import AffixDancing
import AffixDraggable
import AffixLoading
import AffixScheduling
import AffixTestSupport
import Foundation
import Synchronization
import Testing

// Hosts as an app has them: main-actor classes, conforming to each mixin for the main actor
// alone (isolated conformances). The mixins run on their defaults: the main queue,
// `FrameSource.shared` and `DynamicsWorld.shared`. Every test ends by awaiting.

@MainActor final class CardView {
  var center = CGPoint(x: 160, y: 240)
  var alpha = 1.0
  var isHidden = false
  var log: [String] = []
}

extension CardView: @MainActor Dancing {}
extension CardView: @MainActor Draggable {}

/// A main-actor indicator, as a view that spins an image would be.
@MainActor final class BadgeIndicator: @MainActor LoadingIndicator {
  var isShown = false
  var messages: [String?] = []
  var outcome: LoadingOutcome?
  /// The frames of the ticks it was handed.
  var frames: [Int] = []
  var wantsTicks: Bool { true }
  private var appearance: CheckedContinuation<Void, Never>?

  func appear(message: String?) {
    isShown = true
    messages.append(message)
    appearance?.resume()
    appearance = nil
  }

  func update(message: String?) { messages.append(message) }

  func tick(frame: Int, angle: Double) { frames.append(frame) }

  func disappear(outcome: LoadingOutcome) {
    isShown = false
    self.outcome = outcome
  }

  /// Returns once the badge is on screen.
  func appeared() async {
    guard !isShown else { return }
    await withCheckedContinuation { appearance = $0 }
  }
}

@MainActor final class ImportView: @MainActor Loading {
  let badge = BadgeIndicator()
  var imported = 0

  func makeLoadingIndicator() -> any LoadingIndicator { badge }

  var loadingOptions: LoadingOptions {
    LoadingOptions(graceTime: .zero, minimumShowTime: .milliseconds(20))
  }
}

@MainActor @Suite struct MainActorHostTests {
  @Test func aMainActorViewDancesAndItsCompletionTouchesIt() async {
    let card = CardView()
    let ending = await card.dance.animate(duration: 0.1, curve: .easeOut) { $0.alpha = 0 }
      .addCompletion { position in
        #expect(isOnMainQueue())
        card.isHidden = true
        card.log.append("completion at \(position)")
      }
      .start()
      .ended()
    #expect(ending == .end)
    #expect(card.alpha == 0 && card.isHidden)
    #expect(card.log == ["completion at end"])
  }

  @Test func thenBlocksRunOnTheMainActorWhenTheirAnimationStarts() async {
    let card = CardView()
    var restingAlpha = 0.5
    await card.dance.animate(duration: 0.05) { $0.alpha = 0 }
      .then(duration: 0.05) { proxy in
        card.log.append("then")
        proxy.alpha = restingAlpha
      }
      .addCompletion { _ in card.log.append("chained completion") }
      .start()
      .ended()
    restingAlpha = 1
    #expect(card.alpha == 0.5)
    #expect(card.log == ["then", "chained completion"])
  }

  @Test func aMainActorViewIsDraggedAndSnapsBack() async {
    let card = CardView()
    let drag = card.makeDraggable(snap: .snap(damping: 0.7))
    card.drag(.began(at: CGPoint(x: 170, y: 250)))
    card.drag(.changed(to: CGPoint(x: 260, y: 300)))
    card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
    await drag.settled()
    #expect(abs(card.center.x - 160) < 1 && abs(card.center.y - 240) < 1)
    card.removeDraggable()
  }

  @Test func aMoveHandlerWrittenOnTheMainActorMovesAView() async {
    let card = CardView()
    let body = DynamicsWorld.shared.makeBody(at: card.center) { point in
      #expect(isOnMainQueue())
      card.center = point
      return true
    }
    body.snap(Snap(to: CGPoint(x: 100, y: 100), spring: .snap(damping: 0.9)))
    await body.settled()
    #expect(abs(card.center.x - 100) < 1 && abs(card.center.y - 100) < 1)
    body.remove()
  }

  @Test func aMainActorViewLoadsWithAMainActorIndicator() async {
    let view = ImportView()
    let count = await view.withLoading(message: "Importing") {
      await view.badge.appeared()
      view.updateLoading(message: "Importing 2 of 2")
      view.imported = 2
      return view.imported
    }
    await view.loadingSettled()
    #expect(count == 2)
    #expect(view.badge.messages == ["Importing", "Importing 2 of 2"])
    #expect(view.badge.outcome == .success && !view.badge.isShown)
  }

  @Test func aThrowingTaskEndsTheMainActorIndicatorWithFailure() async {
    struct Refused: Error {}
    let view = ImportView()
    await #expect(throws: Refused.self) {
      try await view.withLoading {
        await view.badge.appeared()
        throw Refused()
      }
    }
    await view.loadingSettled()
    #expect(view.badge.outcome?.error is Refused)
  }
}

/// A host that is not `Sendable`, owned by an actor and driven in its isolation; its clock
/// ticks on a queue of its own.
final class Gauge: Dancing {
  static let queue = DispatchQueue(label: "gauge")
  let danceFrames = FrameSource(clock: DispatchClock(queue: Gauge.queue))
  var value = 0.0
}

/// The owner of a ``Gauge``: everything that touches the gauge runs here.
actor GaugeOwner {
  private let gauge = Gauge()

  /// Animates the gauge to 10 and returns where the animation ended, checking that the
  /// completion ran on this actor.
  func animate() async -> AnimatingPosition {
    await withCheckedContinuation { continuation in
      gauge.dance.animate(duration: 0.05, curve: .linear) { $0.value = 10 }
        .addCompletion { position in
          self.preconditionIsolated()
          continuation.resume(returning: position)
        }
        .start()
    }
  }

  var value: Double { gauge.value }
}

@Suite struct ActorOwnedHostTests {
  @Test func aHostOwnedByAnActorIsWrittenAndToldOnThatActor() async {
    let owner = GaugeOwner()
    let ending = await owner.animate()
    #expect(ending == .end)
    #expect(await owner.value == 10)
  }
}

/// A main-actor indicator that writes down every call it receives, in order.
@MainActor final class JournalIndicator: @MainActor LoadingIndicator {
  var events: [String] = []
  var wantsTicks: Bool { true }
  func appear(message: String?) { events.append("appear \(message ?? "-")") }
  func update(message: String?) { events.append("message \(message ?? "-")") }
  func update(progress: Double?) { events.append("progress \(progress.map { "\($0)" } ?? "-")") }
  func tick(frame: Int, angle: Double) { events.append("tick \(frame)") }
  func disappear(outcome: LoadingOutcome) { events.append("disappear \(outcome)") }
}

/// ``ClockedImportView`` with a ``JournalIndicator``.
@MainActor final class JournalView: @MainActor Loading {
  let journal = JournalIndicator()
  let scheduler = VirtualClock()
  func makeLoadingIndicator() -> any LoadingIndicator { journal }
  var loadingClock: any SchedulingClock { scheduler }
  var loadingOptions: LoadingOptions { LoadingOptions(graceTime: .zero, minimumShowTime: .zero) }
}

/// A main-actor view whose loading runs on a virtual clock, advanced from any thread.
@MainActor final class ClockedImportView: @MainActor Loading {
  let badge = BadgeIndicator()
  let scheduler = VirtualClock()

  func makeLoadingIndicator() -> any LoadingIndicator { badge }

  var loadingClock: any SchedulingClock { scheduler }

  var loadingOptions: LoadingOptions {
    LoadingOptions(graceTime: .zero, minimumShowTime: .zero)
  }
}

@MainActor @Suite struct MainActorDeliveryTests {
  @Test func loadingSettledIncludesTheIndicatorCallsQueuedOnTheMainActor() async {
    let view = ClockedImportView()
    view.startLoading(message: "Importing")
    let scheduler = view.scheduler
    // The clock runs on another thread while the main actor is busy here: the indicator's
    // calls wait on the main actor.
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    view.stopLoading()
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    await view.loadingSettled()
    #expect(view.badge.messages == ["Importing"])
    #expect(view.badge.outcome == .success)
  }
}

@MainActor @Suite struct BusyIndicatorTests {
  @Test func aSpinnerKeptBusyIsHandedOneTickTheNewest() async {
    let view = ClockedImportView()
    view.startLoading()
    let scheduler = view.scheduler
    // A hundred ticks, 50 ms apart, on another thread while the main actor is busy here.
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(5)) }
    view.stopLoading()
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    await view.loadingSettled()
    #expect(view.badge.frames.count == 1, "a busy spinner was handed every tick it missed")
    #expect((view.badge.frames.last ?? 0) >= 100)
  }

  @Test func updatesForABusyIndicatorJoinTheLastCallAndEndWithTheNewest() async {
    let view = JournalView()
    view.startLoading(message: "Importing")
    let controller = view.loadingController()
    let scheduler = view.scheduler
    // While the main actor is busy here: the appearance, then 2,000 updates and 20 ticks.
    DispatchQueue.global().sync {
      scheduler.advance(by: .zero)
      for step in 1...1_000 {
        controller.update(progress: Double(step) / 1_000)
        controller.update(message: "File \(step)")
        if step.isMultiple(of: 50) { scheduler.advance(by: .milliseconds(50)) }
      }
    }
    #expect(controller.indicatorBacklog.peak == 2, "the appearance and one update")
    view.stopLoading()
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    await view.loadingSettled()
    #expect(
      view.journal.events == [
        "appear Importing", "message File 1000", "progress 1.0", "tick 20", "disappear success",
      ])
  }

  @Test func anUpdateNeverJoinsACallMadeBeforeAnAppearanceOrADisappearance() async {
    let view = JournalView()
    let scheduler = view.scheduler
    view.startLoading(message: "First")
    let controller = view.loadingController()
    DispatchQueue.global().sync {
      scheduler.advance(by: .zero)
      controller.update(message: "A")
      controller.stop()
      scheduler.advance(by: .zero)
      controller.start(message: "Second")
      scheduler.advance(by: .zero)
      controller.update(message: "B")
    }
    view.stopLoading()
    DispatchQueue.global().sync { scheduler.advance(by: .seconds(1)) }
    await view.loadingSettled()
    #expect(
      view.journal.events == [
        "appear First", "message A", "disappear success", "appear Second", "message B",
        "disappear success",
      ])
  }
}
