import Affix
import AffixScheduling
import AffixTestSupport
import Testing

@Suite struct FrameSourceTests {
  let scheduler = VirtualClock()

  func makeClock(framesPerSecond: Int = 10) -> FrameSource {
    FrameSource(clock: scheduler, framesPerSecond: framesPerSecond)
  }

  @Test func clockStartsOnTheFirstSubscriber() {
    let clock = makeClock()
    #expect(!clock.isRunning)
    #expect(scheduler.pendingCount == 0)
    let subscription = clock.subscribe { _ in }
    #expect(clock.isRunning)
    #expect(clock.subscriberCount == 1)
    #expect(scheduler.pendingCount == 1)
    let second = clock.subscribe { _ in }
    #expect(scheduler.pendingCount == 1)
    withExtendedLifetime((subscription, second)) {}
  }

  @Test func idleClockNeverWakesUp() {
    let clock = makeClock()
    scheduler.advance(by: .seconds(10))
    #expect(clock.wakeUps == 0)
  }

  @Test func clockStopsWhenTheLastSubscriberLeaves() {
    let clock = makeClock()
    let first = clock.subscribe { _ in }
    let second = clock.subscribe { _ in }
    scheduler.advance(by: .milliseconds(300))
    #expect(clock.wakeUps == 3)
    first.cancel()
    #expect(clock.isRunning)
    second.cancel()
    #expect(!clock.isRunning)
    #expect(clock.subscriberCount == 0)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(10))
    #expect(clock.wakeUps == 3)
  }

  @Test func oneWakeUpServesEverySubscriber() {
    let clock = makeClock()
    let delivered = Recording<Int>()
    let subscriptions = (0..<100).map { index in clock.subscribe { _ in delivered.append(index) } }
    scheduler.advance(by: .milliseconds(500))
    #expect(clock.wakeUps == 5)
    #expect(delivered.count == 500)
    #expect(Array(delivered.values.prefix(100)) == Array(0..<100))
    withExtendedLifetime(subscriptions) {}
  }

  @Test func droppingASubscriptionTokenStopsItsFrames() {
    let clock = makeClock()
    let kept = Recording<Int>()
    let dropped = Recording<Int>()
    let keeper = clock.subscribe { kept.append($0.index) }
    do {
      let subscription = clock.subscribe { dropped.append($0.index) }
      scheduler.advance(by: .milliseconds(200))
      withExtendedLifetime(subscription) {}
    }
    #expect(clock.subscriberCount == 1)
    scheduler.advance(by: .milliseconds(200))
    #expect(dropped.values == [0, 1])
    #expect(kept.values == [0, 1, 2, 3])
    withExtendedLifetime(keeper) {}
  }

  @Test func droppingTheOnlySubscriptionStopsTheClock() {
    let clock = makeClock()
    do {
      let subscription = clock.subscribe { _ in }
      withExtendedLifetime(subscription) {}
    }
    #expect(!clock.isRunning)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func subscriberCanUnsubscribeFromInsideItsCallback() {
    let clock = makeClock()
    let frames = Recording<Int>()
    let box = TokenBox()
    box.token = clock.subscribe { frame in
      frames.append(frame.index)
      if frame.index == 2 { box.cancel() }
    }
    scheduler.advance(by: .seconds(1))
    #expect(frames.values == [0, 1, 2])
    #expect(!clock.isRunning)
    #expect(clock.wakeUps == 3)
  }

  @Test func subscriptionCancelledEarlierInAFrameIsNotCalledInThatFrame() {
    let clock = makeClock()
    let later = Recording<Int>()
    let victim = TokenBox()
    let canceller = clock.subscribe { frame in
      if frame.index == 1 { victim.cancel() }
    }
    victim.token = clock.subscribe { later.append($0.index) }
    scheduler.advance(by: .seconds(1))
    #expect(later.values == [0])
    withExtendedLifetime(canceller) {}
  }

  @Test func subscriberCanSubscribeOthersFromInsideItsCallback() {
    let clock = makeClock()
    let newcomer = Recording<Int>()
    let box = TokenBox()
    let host = clock.subscribe { frame in
      if frame.index == 0 { box.token = clock.subscribe { newcomer.append($0.index) } }
    }
    scheduler.advance(by: .milliseconds(300))
    #expect(newcomer.values == [1, 2])
    #expect(clock.subscriberCount == 2)
    withExtendedLifetime(host) {}
  }

  @Test func framesCarryIndexTimestampAndDelta() {
    let clock = makeClock(framesPerSecond: 10)
    #expect(clock.interval == .milliseconds(100))
    let frames = Recording<FrameSource.Frame>()
    scheduler.advance(by: .milliseconds(50))
    let subscription = clock.subscribe { frames.append($0) }
    scheduler.advance(by: .milliseconds(300))
    let expected = (0..<3).map { index in
      FrameSource.Frame(
        index: index, timestamp: .zero + .milliseconds(150 + 100 * index),
        delta: .milliseconds(100))
    }
    #expect(frames.values == expected)
    withExtendedLifetime(subscription) {}
  }

  @Test func frameDeltaIsMeasuredOnTheSchedulersClock() {
    let clock = makeClock(framesPerSecond: 10)
    let frames = Recording<FrameSource.Frame>()
    // An action that is due at the same instant but runs first cannot delay a virtual frame,
    // so deltas stay exactly one interval apart even after a restart.
    let subscription = clock.subscribe { frames.append($0) }
    scheduler.advance(by: .milliseconds(250))
    subscription.cancel()
    scheduler.advance(by: .milliseconds(1_000))
    let again = clock.subscribe { frames.append($0) }
    scheduler.advance(by: .milliseconds(200))
    #expect(frames.values.map(\.index) == [0, 1, 0, 1])
    #expect(frames.values.map(\.delta) == Array(repeating: .milliseconds(100), count: 4))
    #expect(frames.values.map(\.timestamp).last == .zero + .milliseconds(1_450))
    withExtendedLifetime(again) {}
  }

  @Test(arguments: [0, -1, Int.min])
  func nonPositiveFrameRateFallsBackToSixtyWithADiagnostic(framesPerSecond: Int) {
    let reported = DiagnosticLog()
    let clock = reported.capture {
      makeClock(framesPerSecond: framesPerSecond)
    }
    #expect(clock.interval == .seconds(1) / 60)
    #expect(reported.all.map(\.subsystem) == ["scheduling"])
    #expect(reported.all.first?.message.contains("positive frame rate") == true)
  }

  @Test func validFrameRateReportsNothing() {
    let reported = DiagnosticLog()
    _ = reported.capture { makeClock(framesPerSecond: 30) }
    #expect(reported.count == 0)
  }

  @Test func deadClockStopsItsTimer() {
    var clock: FrameSource? = makeClock()
    let subscription = clock?.subscribe { _ in }
    #expect(scheduler.pendingCount == 1)
    clock = nil
    #expect(scheduler.pendingCount == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func sharedClockRunsOnTheMainQueueAtSixtyFramesPerSecondOrTheDisplaysRate() {
    // The display's rate where one drives it (asked for up to 120), a 60 Hz timer elsewhere.
    #if canImport(UIKit) || canImport(AppKit)
      #expect(FrameSource.shared.interval == .seconds(1) / 120)
    #else
      #expect(FrameSource.shared.interval == .seconds(1) / 60)
    #endif
    #expect(FrameSource.shared.clock === DispatchClock.main)
  }
}
