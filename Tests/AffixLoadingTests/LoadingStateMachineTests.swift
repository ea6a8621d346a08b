import Affix
import AffixScheduling
import Foundation
import Testing

@testable import AffixLoading

/// The loading state machine on its own: each transition from each state, and the actions it
/// returns, with the times passed in. Grace 300 ms, minimum show 500 ms.
@Suite struct LoadingStateMachineTests {
  typealias Machine = LoadingStateMachine

  let grace = Duration.milliseconds(300)
  let minimumShow = Duration.milliseconds(500)
  let start = SchedulingInstant(sinceEpoch: .seconds(10))
  let failure = LoadingOutcome.failure(DiskFull())

  func token() -> CancellationToken { CancellationToken(onCancel: {}) }

  func followed() -> UncheckedProgress { UncheckedProgress(Progress(totalUnitCount: 10)) }

  /// A machine with one start, its appearance scheduled with `appearance`.
  func pending(appearance: CancellationToken? = nil) -> Machine {
    var machine = Machine()
    _ = machine.start(message: "Saving", now: start, graceTime: grace)
    if let appearance {
      let unwanted = machine.scheduled(appearance, step: machine.step)
      #expect(unwanted == nil)
    }
    return machine
  }

  /// A machine whose indicator appeared at the end of the grace time.
  func visible(wantsTicks: Bool = false) -> Machine {
    var machine = pending()
    let shown = machine.appear(step: machine.step, now: start + grace, wantsTicks: wantsTicks)
    #expect(shown != nil)
    return machine
  }

  /// A machine whose work stopped with `outcome` at once, the hiding scheduled with `hiding`.
  func finishing(_ outcome: LoadingOutcome = .success, hiding: CancellationToken? = nil)
    -> Machine
  {
    var machine = visible()
    _ = machine.stop(outcome, now: start + grace, minimumShowTime: minimumShow)
    if let hiding {
      let unwanted = machine.scheduled(hiding, step: machine.step)
      #expect(unwanted == nil)
    }
    return machine
  }

  // MARK: start

  @Test func startFromIdleSchedulesTheAppearance() {
    var machine = Machine()
    let action = machine.start(message: "Saving", now: start, graceTime: grace)
    #expect(action == Machine.StartAction(scheduleAppearance: 1))
    #expect(machine.step == 1)
    #expect(machine.phase == .pending(appearsAt: start + grace))
    #expect(machine.depth == 1)
    #expect(machine.message == "Saving")
    #expect(machine.outcome == .success)
    #expect(!machine.isIdle)
  }

  @Test func startFromIdleBeginsNewWorkAfterAFailure() {
    var machine = finishing(failure)
    _ = machine.hide(step: machine.step)
    let resumes = machine.lastCallDrawn()
    #expect(resumes)
    #expect(machine.outcome == failure)
    let step = machine.step
    let action = machine.start(message: nil, now: start + .seconds(5), graceTime: grace)
    #expect(action == Machine.StartAction(scheduleAppearance: step + 1))
    #expect(machine.outcome == .success)
    #expect(machine.message == nil)
    #expect(machine.phase == .pending(appearsAt: start + .seconds(5) + grace))
  }

  @Test func startFromIdleDisownsAStepStillScheduled() {
    // Not reached by the controller, which drops the token whenever it leaves a step behind;
    // the start still hands back whatever token it holds, so that nothing runs twice.
    var machine = Machine()
    let stale = token()
    machine.stepToken = stale
    let action = machine.start(message: "Saving", now: start, graceTime: grace)
    #expect(action.cancel == stale)
    #expect(machine.stepToken == nil)
  }

  @Test func startWhilePendingOnlyNests() {
    var machine = pending()
    let action = machine.start(message: "Other", now: start + .milliseconds(100), graceTime: grace)
    #expect(action == Machine.StartAction())
    #expect(machine.depth == 2)
    #expect(machine.message == "Saving")
    #expect(machine.step == 1)
    #expect(machine.phase == .pending(appearsAt: start + grace))
  }

  @Test func startWhileVisibleOnlyNests() {
    var machine = visible()
    let action = machine.start(message: "Other", now: start + .seconds(1), graceTime: grace)
    #expect(action == Machine.StartAction())
    #expect(machine.depth == 2)
    #expect(machine.message == "Saving")
    #expect(machine.phase == .visible(since: start + grace))
  }

  @Test func startWhileFinishingStartsNewWorkOnScreen() {
    let hiding = token()
    var machine = finishing(failure, hiding: hiding)
    machine.progress = 0.5
    machine.followed = followed()
    let step = machine.step
    let action = machine.start(message: "Next", now: start + .seconds(1), graceTime: grace)
    #expect(
      action
        == Machine.StartAction(cancel: hiding, sendMessage: .some("Next"), clearsProgress: true))
    #expect(machine.step == step + 1)
    #expect(machine.phase == .visible(since: start + grace))
    #expect(machine.outcome == .success)
    #expect(machine.message == "Next")
    #expect(machine.progress == nil)
    #expect(machine.followed == nil)
    #expect(machine.depth == 1)
  }

  @Test func startWhileFinishingWithTheSameMessageAndNoProgressSendsNothing() {
    var machine = finishing()
    let action = machine.start(message: "Saving", now: start + .seconds(1), graceTime: grace)
    #expect(action.sendMessage == nil)
    #expect(!action.clearsProgress)
    #expect(action.scheduleAppearance == nil)
    #expect(machine.phase.isVisible)
  }

  @Test func startWhileFinishingWithoutAMessageSendsNone() {
    var machine = finishing()
    let action = machine.start(message: nil, now: start + .seconds(1), graceTime: grace)
    #expect(action.sendMessage == .some(nil))
    #expect(machine.message == nil)
  }

  // MARK: updates

  @Test func updatesWithNothingLoadingAreIgnored() {
    var machine = Machine()
    let message = machine.update(message: "Late")
    let progress = machine.update(progress: 0.5)
    let follow = machine.follow(followed())
    #expect(message == .ignored)
    #expect(progress == .ignored)
    #expect(follow == .ignored)
    #expect(machine.message == nil)
    #expect(machine.progress == nil)
    #expect(machine.followed == nil)
  }

  @Test func updatesWhileFinishingAreIgnored() {
    // The last stop brought the depth to zero: the indicator is still on screen, but the work
    // it shows is over.
    var machine = finishing()
    let message = machine.update(message: "Late")
    let progress = machine.update(progress: 0.5)
    let follow = machine.follow(followed())
    #expect(message == .ignored)
    #expect(progress == .ignored)
    #expect(follow == .ignored)
    #expect(machine.message == "Saving")
    #expect(machine.progress == nil)
  }

  @Test func updatesWhilePendingAreKeptForTheAppearance() {
    var machine = pending()
    let message = machine.update(message: "Later")
    let progress = machine.update(progress: 0.25)
    #expect(message == .none)
    #expect(progress == .none)
    let shown = machine.appear(step: machine.step, now: start + grace, wantsTicks: false)
    #expect(shown?.message == "Later")
    #expect(shown?.progress == 0.25)
  }

  @Test func updatesWhileVisibleAreSentUnlessTheProgressIsUnchanged() {
    var machine = visible()
    let message = machine.update(message: "Later")
    let first = machine.update(progress: 0.25)
    let same = machine.update(progress: 0.25)
    let indeterminate = machine.update(progress: nil)
    let sameMessage = machine.update(message: "Later")
    #expect(message == .send)
    #expect(first == .send)
    #expect(same == .none)
    #expect(indeterminate == .send)
    // A message is sent even when unchanged, as before.
    #expect(sameMessage == .send)
    #expect(machine.progress == nil)
    #expect(machine.message == "Later")
  }

  @Test func followStartsTicksOnlyWhenVisibleAndNotTicking() {
    var pendingMachine = pending()
    let whilePending = pendingMachine.follow(followed())
    #expect(whilePending == .followed(startTicking: nil))
    #expect(pendingMachine.followed != nil)

    var machine = visible()
    let session = machine.session
    let first = machine.follow(followed())
    #expect(first == .followed(startTicking: session))
    let unwanted = machine.ticking(token(), session: session)
    #expect(unwanted == nil)
    let progress = followed()
    let second = machine.follow(progress)
    #expect(second == .followed(startTicking: nil))
    #expect(machine.followed == progress)
  }

  // MARK: stop

  @Test func stopWithNothingLoadingIsUnbalanced() {
    var machine = Machine()
    let action = machine.stop(.success, now: start, minimumShowTime: minimumShow)
    #expect(action == .unbalanced)
    #expect(machine.depth == 0)
    #expect(machine.phase == .idle)
  }

  @Test func stopWhileFinishingIsUnbalancedAndKeepsTheHiding() {
    let hiding = token()
    var machine = finishing(hiding: hiding)
    let phase = machine.phase
    let step = machine.step
    let action = machine.stop(failure, now: start + .seconds(1), minimumShowTime: minimumShow)
    #expect(action == .unbalanced)
    #expect(machine.phase == phase)
    #expect(machine.step == step)
    #expect(machine.stepToken == hiding)
    #expect(machine.outcome == .success)
  }

  @Test func nestedStopKeepsAFailure() {
    var machine = pending()
    _ = machine.start(message: nil, now: start, graceTime: grace)
    let nested = machine.stop(failure, now: start, minimumShowTime: minimumShow)
    #expect(nested == .nested)
    #expect(machine.depth == 1)
    #expect(machine.outcome == failure)
    let last = machine.stop(.success, now: start, minimumShowTime: minimumShow)
    #expect(last == .cancelAppearance(nil, resumesWaiters: true))
    #expect(machine.outcome == failure)
  }

  @Test func lastStopWhilePendingCancelsTheAppearance() {
    let appearance = token()
    var machine = pending(appearance: appearance)
    let step = machine.step
    let action = machine.stop(.success, now: start, minimumShowTime: minimumShow)
    #expect(action == .cancelAppearance(appearance, resumesWaiters: true))
    #expect(machine.phase == .idle)
    #expect(machine.isIdle)
    let late = machine.appear(step: step, now: start + grace, wantsTicks: false)
    #expect(late == nil)
    #expect(machine.phase == .idle)
  }

  @Test func lastStopWhilePendingWithALastCallOnItsWayKeepsTheWaiters() {
    var machine = finishing()
    _ = machine.hide(step: machine.step)
    _ = machine.start(message: "Next", now: start + .seconds(1), graceTime: grace)
    let action = machine.stop(.success, now: start + .seconds(1), minimumShowTime: minimumShow)
    #expect(action == .cancelAppearance(nil, resumesWaiters: false))
    #expect(machine.phase == .idle)
    #expect(!machine.isIdle)
  }

  @Test func lastStopWhileVisibleSchedulesTheHidingAfterTheMinimumShowTime() {
    let ticks = token()
    var machine = visible()
    machine.tickToken = ticks
    let step = machine.step
    let stopped = start + grace + .milliseconds(100)
    let action = machine.stop(failure, now: stopped, minimumShowTime: minimumShow)
    #expect(action == .hide(stale: nil, step: step + 1, after: .milliseconds(400)))
    #expect(machine.phase == .finishing(since: start + grace, until: start + grace + minimumShow))
    #expect(machine.outcome == failure)
    // The indicator keeps ticking until it hides.
    #expect(machine.tickToken == ticks)
  }

  @Test func lastStopAfterTheMinimumShowTimeHidesAtOnce() {
    var machine = visible()
    let stopped = start + grace + .seconds(2)
    let action = machine.stop(.success, now: stopped, minimumShowTime: minimumShow)
    #expect(action == .hide(stale: nil, step: machine.step, after: .zero))
    #expect(machine.phase == .finishing(since: start + grace, until: stopped))
  }

  @Test func lastStopInAnImpossiblePhaseGoesIdle() {
    // Work in progress is pending or visible; a depth left over in another phase resets.
    var machine = Machine()
    machine.depth = 1
    let action = machine.stop(.success, now: start, minimumShowTime: minimumShow)
    #expect(action == .nested)
    #expect(machine.depth == 0)
    #expect(machine.phase == .idle)
  }

  // MARK: scheduling

  @Test func aTokenForADisownedStepIsReturnedToCancel() {
    var machine = pending()
    let stale = token()
    let returned = machine.scheduled(stale, step: machine.step - 1)
    #expect(returned == stale)
    #expect(machine.stepToken == nil)
    let current = token()
    let kept = machine.scheduled(current, step: machine.step)
    #expect(kept == nil)
    #expect(machine.stepToken == current)
  }

  // MARK: appear

  @Test func appearOfTheCurrentStepShowsTheIndicator() {
    var machine = pending()
    _ = machine.update(progress: 0.75)
    let session = machine.session
    let shown = machine.appear(step: machine.step, now: start + grace, wantsTicks: true)
    #expect(
      shown
        == Machine.AppearAction(
          message: "Saving", progress: 0.75, session: session + 1, ticks: true)
    )
    #expect(machine.session == session + 1)
    #expect(machine.phase == .visible(since: start + grace))
    #expect(machine.frame == 0)
  }

  @Test func appearWithoutTicksOrAFollowedProgressAsksForNoTicks() {
    var machine = pending()
    let shown = machine.appear(step: machine.step, now: start + grace, wantsTicks: false)
    #expect(shown?.ticks == false)
  }

  @Test func appearTicksWhenFollowingAProgressEvenWithoutWantedTicks() {
    var machine = pending()
    _ = machine.follow(followed())
    let shown = machine.appear(step: machine.step, now: start + grace, wantsTicks: false)
    #expect(shown?.ticks == true)
  }

  @Test func appearOfAnOldStepOrOutsidePendingDoesNothing() {
    var machine = pending()
    let wrongStep = machine.appear(step: machine.step + 1, now: start + grace, wantsTicks: false)
    #expect(wrongStep == nil)
    #expect(machine.phase == .pending(appearsAt: start + grace))

    var shown = visible()
    let session = shown.session
    let again = shown.appear(step: shown.step, now: start + .seconds(1), wantsTicks: false)
    #expect(again == nil)
    #expect(shown.phase == .visible(since: start + grace))
    #expect(shown.session == session)

    var idle = Machine()
    let fromIdle = idle.appear(step: idle.step, now: start, wantsTicks: false)
    #expect(fromIdle == nil)
    #expect(idle.phase == .idle)
  }

  // MARK: ticks

  @Test func ticksCountFramesOfTheCurrentSessionOnly() {
    var machine = visible()
    let session = machine.session
    let first = machine.tick(session: session)
    let second = machine.tick(session: session)
    let old = machine.tick(session: session - 1)
    #expect(first == Machine.TickAction(frame: 1, followed: nil))
    #expect(second == Machine.TickAction(frame: 2, followed: nil))
    #expect(old == nil)
    #expect(machine.frame == 2)

    var pendingMachine = pending()
    let early = pendingMachine.tick(session: pendingMachine.session)
    #expect(early == nil)
    #expect(pendingMachine.frame == 0)
  }

  @Test func aTickCarriesTheFollowedProgress() {
    var machine = visible()
    let progress = followed()
    _ = machine.follow(progress)
    let ticked = machine.tick(session: machine.session)
    #expect(ticked == Machine.TickAction(frame: 1, followed: progress))
  }

  @Test func ticksWhileFinishingGoOnAndStopOnceHidden() {
    var machine = finishing()
    let session = machine.session
    let finishingTick = machine.tick(session: session)
    #expect(finishingTick?.frame == 1)
    _ = machine.hide(step: machine.step)
    let hiddenTick = machine.tick(session: session)
    #expect(hiddenTick == nil)
  }

  @Test func ticksForAnEndedOrTickingSessionAreReturnedToCancel() {
    var machine = visible()
    let session = machine.session
    let stale = token()
    let old = machine.ticking(stale, session: session - 1)
    #expect(old == stale)
    let ticks = token()
    let kept = machine.ticking(ticks, session: session)
    #expect(kept == nil)
    let second = token()
    let duplicate = machine.ticking(second, session: session)
    #expect(duplicate == second)
    #expect(machine.tickToken == ticks)

    var pendingMachine = pending()
    let early = token()
    let beforeAppearing = pendingMachine.ticking(early, session: pendingMachine.session)
    #expect(beforeAppearing == early)
    #expect(pendingMachine.tickToken == nil)
  }

  // MARK: hide

  @Test func hideOfTheCurrentStepEndsWithTheOutcome() {
    let hiding = token()
    var machine = finishing(.cancelled, hiding: hiding)
    let ticks = token()
    machine.tickToken = ticks
    let session = machine.session
    let action = machine.hide(step: machine.step)
    #expect(action == Machine.HideAction(outcome: .cancelled, tokens: [hiding, ticks]))
    #expect(machine.phase == .idle)
    #expect(machine.session == session + 1)
    #expect(machine.tickToken == nil)
    #expect(machine.stepToken == nil)
    #expect(machine.isDrawingLastCall)
    #expect(!machine.isIdle)
    let resumes = machine.lastCallDrawn()
    #expect(resumes)
    #expect(machine.isIdle)
  }

  @Test func hideOfAnOldStepOrOutsideFinishingDoesNothing() {
    var machine = finishing()
    let wrongStep = machine.hide(step: machine.step - 1)
    #expect(wrongStep == nil)
    #expect(machine.phase == .finishing(since: start + grace, until: start + grace + minimumShow))

    var shown = visible()
    let whileVisible = shown.hide(step: shown.step)
    #expect(whileVisible == nil)
    #expect(shown.phase == .visible(since: start + grace))

    var idle = Machine()
    let whileIdle = idle.hide(step: idle.step)
    #expect(whileIdle == nil)
    #expect(!idle.isDrawingLastCall)
  }

  @Test func hideAfterNewWorkTookTheIndicatorOverDoesNothing() {
    var machine = finishing()
    let hidingStep = machine.step
    _ = machine.start(message: "Next", now: start + .seconds(1), graceTime: grace)
    let late = machine.hide(step: hidingStep)
    #expect(late == nil)
    #expect(machine.phase == .visible(since: start + grace))
    #expect(machine.depth == 1)
  }

  // MARK: end

  @Test func endWhileVisibleTakesTheIndicatorAway() {
    var machine = visible()
    let ticks = token()
    machine.tickToken = ticks
    let ended = machine.end()
    #expect(ended == Machine.EndAction(tokens: [ticks], wasVisible: true, isDrawingLastCall: true))
    #expect(machine.phase == .idle)
    #expect(machine.depth == 0)
    #expect(machine.message == nil)
    #expect(!machine.isIdle)
  }

  @Test func endWhilePendingCancelsTheAppearance() {
    let appearance = token()
    var machine = pending(appearance: appearance)
    let step = machine.step
    let ended = machine.end()
    #expect(
      ended == Machine.EndAction(tokens: [appearance], wasVisible: false, isDrawingLastCall: false))
    #expect(machine.isIdle)
    let late = machine.appear(step: step, now: start + grace, wantsTicks: false)
    #expect(late == nil)
  }

  @Test func endWhileFinishingTakesTheIndicatorAwayAndDisownsTheHiding() {
    let hiding = token()
    var machine = finishing(hiding: hiding)
    let step = machine.step
    let ended = machine.end()
    #expect(ended == Machine.EndAction(tokens: [hiding], wasVisible: true, isDrawingLastCall: true))
    let late = machine.hide(step: step)
    #expect(late == nil)
  }

  @Test func endWhileIdleDoesNothingAndKeepsALastCallOnItsWay() {
    var idle = Machine()
    let ended = idle.end()
    #expect(ended == Machine.EndAction(tokens: [], wasVisible: false, isDrawingLastCall: false))
    #expect(idle.isIdle)

    var hidden = finishing()
    _ = hidden.hide(step: hidden.step)
    let endedAgain = hidden.end()
    #expect(endedAgain == Machine.EndAction(tokens: [], wasVisible: false, isDrawingLastCall: true))
    #expect(!hidden.isIdle)
  }

  @Test func lastCallDrawnWithNewWorkInProgressDoesNotResumeWaiters() {
    var machine = finishing()
    _ = machine.hide(step: machine.step)
    _ = machine.start(message: "Next", now: start + .seconds(2), graceTime: grace)
    let resumes = machine.lastCallDrawn()
    #expect(!resumes)
    #expect(!machine.isDrawingLastCall)
    #expect(machine.phase == .pending(appearsAt: start + .seconds(2) + grace))
  }
}
