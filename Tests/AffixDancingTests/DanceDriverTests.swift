import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// Many hosts on one virtual-time clock at 100 frames a second.
private struct Crowd {
  let frames = VirtualFrames()
  let boxes: [Box]

  init(count: Int) {
    boxes = (0..<count).map { _ in Box() }
  }

  var clock: VirtualClock { frames.clock }
  var source: FrameSource { frames.source }
  func advance(_ seconds: Double) { frames.advance(seconds) }

  func dance(_ index: Int) -> Dance<Box> {
    Dance.of(boxes[index], frames: source)
  }
}

@MainActor struct DanceDriverTests {
  @Test(arguments: [1, 2, 50])
  func allAnimationsOnOneClockShareOneSubscription(count: Int) {
    let crowd = Crowd(count: count)
    for index in 0..<count {
      crowd.dance(index).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    }
    #expect(crowd.source.subscriberCount == 1)
    #expect(Dancer.runningCount(on: crowd.source) == count)
    crowd.advance(0.5)
    #expect(crowd.boxes.allSatisfy { abs($0.x - 50) < 1e-9 })
    crowd.advance(0.6)
    #expect(crowd.boxes.allSatisfy { $0.x == 100 })
    #expect(crowd.source.subscriberCount == 0 && !crowd.source.isRunning)
    #expect(Dancer.runningCount(on: crowd.source) == 0)
    #expect(crowd.clock.pendingCount == 0)
  }

  @Test func eachClockHasItsOwnSubscription() {
    let first = Crowd(count: 2)
    let second = Crowd(count: 1)
    first.dance(0).animate(duration: 1) { $0.x = 1 }.start()
    first.dance(1).animate(duration: 1) { $0.x = 1 }.start()
    second.dance(0).animate(duration: 1) { $0.x = 1 }.start()
    #expect(first.source.subscriberCount == 1 && second.source.subscriberCount == 1)
    #expect(Dancer.runningCount(on: first.source) == 2)
    #expect(Dancer.runningCount(on: second.source) == 1)
    second.dance(0).stop(withoutFinishing: true)
    #expect(first.source.subscriberCount == 1 && second.source.subscriberCount == 0)
  }

  @Test func animationsLeavingMidwayDoNotDisturbTheOthers() {
    let crowd = Crowd(count: 6)
    for index in 0..<6 {
      // Odd ones end after 0.2 s, even ones after 1 s.
      let duration = index.isMultiple(of: 2) ? 1.0 : 0.2
      crowd.dance(index).animate(duration: duration, curve: .linear) { $0.x = 100 }.start()
    }
    crowd.dance(2).pause()
    crowd.advance(0.5)
    #expect(Dancer.runningCount(on: crowd.source) == 2)
    #expect(crowd.boxes[0].x == 50 && crowd.boxes[4].x == 50)
    #expect(crowd.boxes[2].x == 0)
    #expect([1, 3, 5].allSatisfy { crowd.boxes[$0].x == 100 })
    crowd.dance(2).start()
    #expect(Dancer.runningCount(on: crowd.source) == 3)
    crowd.advance(0.5)
    #expect(crowd.boxes[0].x == 100 && crowd.boxes[4].x == 100)
    #expect(crowd.boxes[2].x == 50)
    #expect(crowd.source.subscriberCount == 1)
    crowd.advance(1)
    #expect(crowd.boxes[2].x == 100 && crowd.source.subscriberCount == 0)
  }

  @Test func aCompletionCanStartAnotherHostsAnimationDuringAFrame() {
    let crowd = Crowd(count: 2)
    let second = crowd.dance(1)
    crowd.dance(0).animate(duration: 0.2, curve: .linear) { $0.x = 10 }
      .addCompletion { _ in
        second.animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
      }
      .start()
    crowd.advance(0.2)
    #expect(crowd.boxes[0].x == 10 && second.isRunning)
    #expect(Dancer.runningCount(on: crowd.source) == 1 && crowd.source.subscriberCount == 1)
    crowd.advance(0.5)
    #expect(abs(crowd.boxes[1].x - 50) < 1e-9)
    crowd.advance(0.5)
    #expect(crowd.boxes[1].x == 100 && crowd.source.subscriberCount == 0)
  }

  @Test func aDeadHostLeavesTheDriverWhileTheOthersGoOn() {
    let frames = VirtualFrames()
    let clock = frames.clock
    let source = frames.source
    let survivor = Box()
    Dance.of(survivor, frames: source).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    do {
      let doomed = Box()
      Dance.of(doomed, frames: source).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
      #expect(Dancer.runningCount(on: source) == 2)
    }
    clock.advance(by: .milliseconds(500))
    #expect(Dancer.runningCount(on: source) == 1 && source.subscriberCount == 1)
    #expect(abs(survivor.x - 50) < 1e-9)
    clock.advance(by: .milliseconds(600))
    #expect(survivor.x == 100 && source.subscriberCount == 0)
  }
}
