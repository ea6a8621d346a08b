import Affix
import AffixScheduling
import AffixTestSupport
import Dispatch
import Testing

/// A frame source takes any positive frame rate: 120 gives twice the frames of 60, at the same
/// instants and between them.
@Suite struct FrameRateTests {
  @Test(arguments: [24, 30, 60, 90, 120, 144, 240])
  func aSecondHasAsManyFramesAsTheRate(framesPerSecond: Int) {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: framesPerSecond)
    #expect(clock.interval == .seconds(1) / framesPerSecond)
    let frames = Recording<FrameSource.Frame>()
    let subscription = clock.subscribe { frames.append($0) }
    scheduler.advance(by: .seconds(1))
    #expect(frames.values.count == framesPerSecond)
    #expect(frames.values.map(\.index) == Array(0..<framesPerSecond))
    #expect(frames.values.allSatisfy { $0.delta == clock.interval })
    withExtendedLifetime(subscription) {}
  }

  @Test func everySixtyHertzFrameIsAOneHundredTwentyHertzFrame() {
    let scheduler = VirtualClock()
    let slow = FrameSource(clock: scheduler, framesPerSecond: 60)
    let fast = FrameSource(clock: scheduler, framesPerSecond: 120)
    let slowFrames = Recording<FrameSource.Frame>()
    let fastFrames = Recording<FrameSource.Frame>()
    let subscriptions = [
      slow.subscribe { slowFrames.append($0) }, fast.subscribe { fastFrames.append($0) },
    ]
    scheduler.advance(by: .seconds(1))
    let fastTimestamps = fastFrames.values.map(\.timestamp)
    #expect(fastTimestamps.count == 2 * slowFrames.values.count)
    // The odd frames of the faster clock are the slower clock's frames, at the same instants.
    let odd = stride(from: 1, to: fastTimestamps.count, by: 2).map { fastTimestamps[$0] }
    #expect(odd == slowFrames.values.map(\.timestamp))
    withExtendedLifetime(subscriptions) {}
  }
}

/// The logic that drives `FrameSource.shared` from the display on Apple platforms, run here
/// through its twin, a Dispatch timer on the main queue in place of the display's link.
@Suite(.serialized) struct DisplayLinkTests {
  @MainActor @Test func aDisplayLinkedClockTicksOnTheMainQueueAndLetsItsLinkGoWhenIdle() async {
    let clock = FrameSource.displayLinked(framesPerSecond: 120)
    #expect(clock.interval == .seconds(1) / 120)
    #expect(clock.clock === DispatchClock.main)
    let onMainQueue = Recording<Bool>()
    let subscription = clock.subscribe { _ in onMainQueue.append(isOnMainQueue()) }
    #expect(clock.isRunning)
    #expect(await eventually { onMainQueue.values.count >= 3 })
    #expect(!onMainQueue.values.contains(false))
    #expect(DisplayLink.openLinks == 1)
    subscription.cancel()
    #expect(!clock.isRunning)
    #expect(await eventually { DisplayLink.openLinks == 0 })
  }

  @MainActor @Test func aClockCancelledBeforeItsLinkOpensNeverOpensOne() async {
    let clock = FrameSource.displayLinked(framesPerSecond: 120)
    let frames = Recording<FrameSource.Frame>()
    let opened = DisplayLink.linksOpened
    // On the main actor: the open and the close are both enqueued behind this test's turn.
    clock.subscribe { frames.append($0) }.cancel()
    let flushed = Recording<Bool>()
    DispatchQueue.main.async { flushed.append(true) }
    #expect(await eventually { !flushed.values.isEmpty })
    #expect(DisplayLink.linksOpened == opened)
    #expect(DisplayLink.openLinks == 0)
    #expect(frames.values.isEmpty)
  }

  @MainActor @Test func aRestartedClockOpensANewLinkAndCountsItsFramesAgain() async {
    let clock = FrameSource.displayLinked(framesPerSecond: 120)
    let frames = Recording<FrameSource.Frame>()
    var subscription = clock.subscribe { frames.append($0) }
    #expect(await eventually { frames.values.count >= 2 })
    subscription.cancel()
    #expect(await eventually { DisplayLink.openLinks == 0 })
    let before = frames.values.count
    subscription = clock.subscribe { frames.append($0) }
    #expect(await eventually { frames.values.count >= before + 2 })
    #expect(frames.values[before].index == 0)
    #expect(frames.values[before].delta == clock.interval)
    #expect(DisplayLink.openLinks == 1)
    subscription.cancel()
    #expect(await eventually { DisplayLink.openLinks == 0 })
  }
}
