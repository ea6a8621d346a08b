import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

// The mixins keep their handlers and indicators in `IsolatedCallback`s and `IsolationBound`s:
// when a main-actor view dies off the main actor, the sweeper releases its mixins, and what
// they kept for the main actor is released there.

/// A fresh indicator for each loading, holding a witness: only the loading controller keeps it.
@MainActor final class WitnessIndicator: @MainActor LoadingIndicator {
  let witness: Witness
  init(_ witness: Witness) { self.witness = witness }
  func appear(message: String?) {}
  func update(message: String?) {}
  func disappear(outcome: LoadingOutcome) {}
}

/// A main-actor view with each mixin, on a virtual clock that never advances: its loading,
/// dance and drag are under way when it dies.
@MainActor final class WitnessedView: @MainActor Loading, @MainActor Dancing, @MainActor Draggable {
  let makeWitness: () -> Witness
  let frames: VirtualFrames
  let scheduler = VirtualClock()
  var alpha = 1.0
  var center = CGPoint(x: 0, y: 0)

  init(frames: VirtualFrames, makeWitness: @escaping () -> Witness) {
    self.frames = frames
    self.makeWitness = makeWitness
  }

  func makeLoadingIndicator() -> any LoadingIndicator { WitnessIndicator(makeWitness()) }
  var loadingClock: any SchedulingClock { scheduler }
  var danceFrames: FrameSource { frames.source }
}

@MainActor @Suite struct MixinsReleasedOnTheMainActorTests {
  /// `mode` says what each view keeps: 1 a loading indicator, 2 a dance completion, 4 a release
  /// handler, each holding a witness; 7 all three.
  @Test(arguments: [1, 2, 4, 7])
  func aDeadViewsIndicatorCompletionAndReleaseHandlerGoOnTheMainActor(mode: Int) async {
    let tally = Tally()
    let ledger = ReleaseLedger()
    let frames = VirtualFrames(framesPerSecond: 60)
    let world = DynamicsWorld(frames: frames.source)
    let count = 50
    var views: [WitnessedView] = []
    for _ in 0..<count {
      let view = WitnessedView(frames: frames) {
        Witness(tally: tally, ledger: ledger) { isOnMainQueue() }
      }
      if mode & 1 != 0 { view.startLoading() }
      if mode & 2 != 0 {
        let completed = Witness(tally: tally, ledger: ledger) { isOnMainQueue() }
        view.dance.animate(duration: 10, curve: .linear) { $0.alpha = 0 }
          .addCompletion { [completed] _ in _ = completed }
          .start()
      }
      if mode & 4 != 0 {
        let released = Witness(tally: tally, ledger: ledger) { isOnMainQueue() }
        view.makeDraggable(snapPoint: CGPoint(x: 100, y: 0), world: world)
          .onRelease { [released] _ in
            _ = released
            return .snapToNearest
          }
      }
      views.append(view)
    }
    let expected = count * mode.nonzeroBitCount
    let dying = Held()
    for view in views { dying.add(view) }
    views = []
    // The views die on another thread: the sweeper releases their mixins.
    Task.detached { dying.drop() }
    var bumps = 0
    let deadline = ContinuousClock.now + .seconds(20)
    while ledger.total < expected, ContinuousClock.now < deadline {
      for _ in 0..<200 {
        tally.count += 1
        bumps += 1
      }
      await Task.yield()
    }
    #expect(ledger.total == expected, "not every witness was released")
    #expect(ledger.offOwner.value == 0, "deinits ran off the main queue")
    #expect(bumps + ledger.total - tally.count == 0, "updates were lost")
  }
}
