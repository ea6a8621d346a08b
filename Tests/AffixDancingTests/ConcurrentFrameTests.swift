import AffixDancing
import AffixScheduling
import AffixTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A host whose animated properties may be written and read from any thread, as a host must be
/// when calls on its animation come from threads other than its clock's.
final class SharedBox: Sendable {
  private let xBits = Atomic<UInt64>(0)
  private let yBits = Atomic<UInt64>(0)

  var x: Double {
    get { Double(bitPattern: xBits.load(ordering: .relaxed)) }
    set { xBits.store(newValue.bitPattern, ordering: .relaxed) }
  }

  var y: Double {
    get { Double(bitPattern: yBits.load(ordering: .relaxed)) }
    set { yBits.store(newValue.bitPattern, ordering: .relaxed) }
  }
}

/// Frames racing calls from other threads. Run under the thread sanitizer in CI: the driver's
/// per-member memos of track lists, and the frames delivered to the hosts' actor while the
/// clock is driven elsewhere, are what these pin.
struct ConcurrentFrameTests {
  /// Hosts shared by the threads of one test.
  private struct Stage: Sendable {
    let frames = VirtualFrames()
    let boxes = (0..<40).map { _ in SharedBox() }

    var clock: VirtualClock { frames.clock }
    var source: FrameSource { frames.source }

    func dance(_ index: Int) -> Dance<SharedBox> {
      Dance.of(boxes[index], frames: source)
    }

    func frame() {
      clock.advance(by: .milliseconds(10))
    }

    /// Advances `count` frames on a thread of its own, while the caller goes on.
    func framesElsewhere(_ count: Int) -> Task<Void, Never> {
      Task.detached { for _ in 0..<count { frame() } }
    }
  }

  /// The actor the boxes are animated from: every frame they get is delivered here.
  private actor Animator {
    func animate(_ stage: Stage, duration: Double, x: Double, y: (Int) -> Double?) {
      for index in stage.boxes.indices {
        stage.dance(index).animate(duration: duration) {
          $0.x = x
          if let y = y(index) { $0.y = y }
        }.start()
      }
    }

    /// Re-animates the boxes in turn, `rounds` times: one property or two, so that lists of
    /// both shapes are replaced mid-flight.
    func reanimate(_ stage: Stage, rounds: Int) {
      for round in 0..<rounds {
        let index = round % stage.boxes.count
        if round % 3 == 1 {
          stage.dance(index).addAnimations { $0.y = Double(round) }
        } else {
          stage.dance(index).animate(duration: 0.5) {
            $0.x = Double(round)
            if round % 2 == 0 { $0.y = Double(-round) }
          }.start()
        }
      }
    }

    /// Waits until every box's animation has ended here, its last frame written.
    func ended(_ stage: Stage) async {
      for index in stage.boxes.indices { _ = await stage.dance(index).ended() }
    }
  }

  /// Re-animating a host, or adding animations to it, replaces its track list while frames
  /// write through the old one; the last animation of each host, left to run out, lands on its
  /// own targets.
  @Test func reanimatingWhileFramesRunEndsOnTheLastTargets() async {
    let stage = Stage()
    let animator = Animator()
    await animator.animate(stage, duration: 1, x: 1) { _ in nil }
    let rounds = 400
    let frames = stage.framesElsewhere(rounds)
    await animator.reanimate(stage, rounds: rounds)
    await frames.value
    for _ in 0..<100 { stage.frame() }
    await animator.ended(stage)
    for index in stage.boxes.indices {
      let last = Array(stride(from: index, to: rounds, by: stage.boxes.count)).last { $0 % 3 != 1 }
      #expect(stage.boxes[index].x == Double(last ?? -1))
      #expect(!stage.dance(index).isRunning)
    }
    #expect(Dancer.runningCount(on: stage.source) == 0)
  }

  /// Two threads driving one virtual clock run the frames of one source on either thread, one
  /// after another: what a frame leaves in the driver's memos is seen by the next on the other
  /// thread, and every animation ends on its targets.
  @Test func framesDrivenFromTwoThreadsEndOnTheTargets() async {
    let stage = Stage()
    let animator = Animator()
    await animator.animate(stage, duration: 2, x: 100) { Double($0) }
    let drivers = [stage.framesElsewhere(150), stage.framesElsewhere(150)]
    for driver in drivers { await driver.value }
    for _ in 0..<250 { stage.frame() }
    await animator.ended(stage)
    #expect(stage.boxes.allSatisfy { $0.x == 100 })
    #expect(stage.boxes.indices.allSatisfy { stage.boxes[$0].y == Double($0) })
    #expect(Dancer.runningCount(on: stage.source) == 0)
  }
}
