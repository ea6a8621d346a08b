import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import Foundation
import Observation
import Synchronization
import Testing

/// A host on a virtual-time clock at 100 frames a second, so that frames fall on round numbers.
private final class Dot: Dancing {
  let danceFrames: FrameSource
  var x = 0.0

  init(clock: FrameSource) {
    danceFrames = clock
  }
}

@MainActor @Suite struct DanceObservationTests {
  @Test func aTrackedStateIsToldWhenTheAnimationStarts() {
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    let dance = dot.dance.animate(duration: 1) { $0.x = 100 }
    let state = TrackedRead { dance.state }
    let running = TrackedRead { dot.dance.isRunning }
    #expect(!state.fired && !running.fired)
    dance.start()
    #expect(state.fired && running.fired)
  }

  @Test func aTrackedStateIsToldWhenTheAnimationPauses() {
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    let dance = dot.dance.animate(duration: 1) { $0.x = 100 }.start()
    floor.advance(milliseconds: 100)
    let running = TrackedRead { dance.isRunning }
    floor.advance(milliseconds: 100)
    #expect(!running.fired)
    dance.pause()
    #expect(running.fired)
    #expect(!dance.isRunning)
  }

  @Test func aTrackedStateIsToldByTheFrameThatEndsTheAnimation() {
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    dot.dance.animate(duration: 0.5, curve: .linear) { $0.x = 100 }.start()
    floor.advance(milliseconds: 100)
    let state = TrackedRead { dot.dance.state }
    let animation = TrackedRead { dot.dance.hasAnimation }
    let groups = TrackedRead { dot.dance.groups.count }
    floor.advance(milliseconds: 300)
    #expect(!state.fired && !animation.fired && !groups.fired)
    floor.advance(milliseconds: 200)
    #expect(state.fired && animation.fired && groups.fired)
    #expect(dot.x == 100 && !dot.dance.hasAnimation)
  }

  @Test func aTrackedProgressIsToldByAFrame() {
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    let dance = dot.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    floor.advance(milliseconds: 100)
    let before = dance.progress
    let progress = TrackedRead { dance.progress }
    floor.advance(milliseconds: 10)
    #expect(progress.fired)
    #expect(dance.progress > before)
  }

  @Test func aFrameThatOnlyMovesTheProgressLeavesATrackedStateAsleep() {
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    let dance = dot.dance.animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    floor.advance(milliseconds: 100)
    let state = TrackedRead { (dance.state, dance.isRunning, dance.hasAnimation, dance.tag) }
    let groups = TrackedRead { dot.dance.groups.count }
    // Read on the same host, so that the frame has a tracker to tell.
    let progress = TrackedRead { dance.progress }
    floor.advance(milliseconds: 10)
    #expect(progress.fired)
    #expect(!state.fired && !groups.fired)
    floor.advance(milliseconds: 200)
    #expect(!state.fired && !groups.fired)
    dance.stop(withoutFinishing: true)
    #expect(state.fired && groups.fired)
  }

  @Test func aHostWhoseStateWasNotReadTellsNothing() {
    let floor = VirtualFrames()
    let read = Dot(clock: floor.source)
    let unread = Dot(clock: floor.source)
    read.dance.animate(duration: 1) { $0.x = 100 }
    let state = TrackedRead { read.dance.state }
    let progress = TrackedRead { read.dance.progress }
    let other = unread.dance.animate(duration: 0.2) { $0.x = 100 }.start()
    floor.advance(milliseconds: 50)
    other.pause().start()
    floor.advance(milliseconds: 300)
    #expect(unread.x == 100)
    #expect(!state.fired && !progress.fired)
    #expect(!other.dancer.hasBeenObserved)
    // The tracking of the host that was read is live all along.
    read.dance.start()
    #expect(state.fired && progress.fired)
  }

  @Test func aTrackedStateIsToldWhenTheHostDies() {
    let floor = VirtualFrames()
    var dot: Dot? = Dot(clock: floor.source)
    guard let dance = dot.map({ $0.dance.animate(duration: 1) { $0.x = 100 }.start() }) else {
      return
    }
    let state = TrackedRead { dance.hasAnimation }
    dot = nil
    _ = AssociationTable.sweep()
    floor.advance(milliseconds: 10)
    #expect(state.fired)
    #expect(!dance.hasAnimation)
  }

  @Test func trackingKeepsNeitherTheHostNorItsDancerAlive() {
    let floor = VirtualFrames()
    weak var weakHost: Dot?
    weak var weakDancer: Dancer?
    do {
      let dot = Dot(clock: floor.source)
      let dance = dot.dance.animate(duration: 1) { $0.x = 100 }
      weakHost = dot
      weakDancer = dance.dancer
      // The first tracking shows that the reads take part; the second stays installed.
      let started = TrackedRead { dance.state }
      dance.start()
      #expect(started.fired)
      _ = TrackedRead { (dance.state, dance.progress, dot.dance.groups.count) }
      floor.advance(milliseconds: 10)
      dance.stop(withoutFinishing: true)
      _ = TrackedRead { (dance.state, dance.progress) }
    }
    _ = AssociationTable.sweep()
    #expect(isDeallocated { weakHost })
    #expect(isDeallocated { weakDancer })
  }

  // Without a change told, the wait for the next value would never end.
  @Test(.timeLimit(.minutes(1)))
  func observationsFollowTheStateAcrossControlCalls() async {
    guard #available(macOS 26, iOS 26, tvOS 26, visionOS 26, *) else { return }
    let floor = VirtualFrames()
    let dot = Dot(clock: floor.source)
    let dance = dot.dance.animate(duration: 1) { $0.x = 100 }.start()
    var running = Observations { dance.isRunning }.makeAsyncIterator()
    #expect(await running.next() == true)
    dance.pause()
    #expect(await running.next() == false)
    dance.start()
    #expect(await running.next() == true)
  }
}
