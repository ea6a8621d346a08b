// The sound use of Tests/Fixtures/must-compile/guide-mixin-on-the-main-actor.swift: the guide's
// one-line mixin, started on the main actor, its timer firing on another thread.
import Affix
import AffixScheduling
import Dispatch
import Testing

/// A host that blinks.
protocol Blinking: AnyObject {
  var isVisible: Bool { get set }
}

extension Blinking {
  /// Hides the host once, `delay` from now on `clock`, in the caller's isolation.
  func blink(
    after delay: Duration = .milliseconds(100), on clock: any SchedulingClock = DispatchClock.main,
    isolation: isolated (any Actor) = #isolation
  ) {
    let toggle = IsolatedCallback<Bool>(isolation: isolation) { [weak self] visible in
      self?.isVisible = visible
    }
    clock.schedule(after: delay) { toggle(false) }.detach()
  }
}

@MainActor private final class BlinkingLamp: @MainActor Blinking {
  var isVisible = true {
    didSet {
      writes.append(isVisible)
      if !isVisible { hidden?.yield() }
    }
  }
  var writes: [Bool] = []
  /// Told each time the lamp hides.
  var hidden: AsyncStream<Void>.Continuation?
}

@MainActor private func flash(
  _ lamp: BlinkingLamp, on clock: any SchedulingClock = DispatchClock.main
) {
  lamp.blink(on: clock)
  lamp.isVisible = true
}

@MainActor @Suite(.timeLimit(.minutes(1))) struct GuideMixinTests {
  /// The timer fires on another thread while the main actor is held: the toggle waits for the
  /// main actor, behind the write made there meanwhile, and hides the lamp after it.
  @Test func aBlinkFiredOnAnotherThreadHidesTheLampAfterTheMainActorsWrites() async {
    let clock = VirtualClock()
    let lamp = BlinkingLamp()
    flash(lamp, on: clock)
    clock.advanceOnAnotherThread(by: .milliseconds(100))
    lamp.isVisible = true
    #expect(lamp.writes == [true, true])
    await yield(until: { lamp.writes.count == 3 })
    #expect(lamp.writes == [true, true, false])
    #expect(clock.pendingCount == 0)
  }

  /// Many lamps flashed on the main actor, their timers on a concurrent Dispatch queue: each
  /// lamp is shown by its flash, then hidden once by its timer, on the main actor.
  @Test func lampsBlinkedOnADispatchQueueAreEachHiddenOnceOnTheMainActor() async {
    let clock = DispatchClock(queue: DispatchQueue(label: "blinks", attributes: .concurrent))
    let (hidden, continuation) = AsyncStream.makeStream(of: Void.self)
    let lamps = (0..<50).map { _ in BlinkingLamp() }
    for lamp in lamps {
      lamp.hidden = continuation
      lamp.blink(after: .milliseconds(1), on: clock)
      lamp.isVisible = true
    }
    var hides = 0
    for await _ in hidden {
      hides += 1
      if hides == lamps.count { break }
    }
    #expect(lamps.allSatisfy { $0.writes == [true, false] })
  }

  /// The fixture's own call, on the main queue's clock.
  @Test func aLampFlashedOnTheMainQueuesClockIsHiddenThere() async {
    let (hidden, continuation) = AsyncStream.makeStream(of: Void.self)
    let lamp = BlinkingLamp()
    lamp.hidden = continuation
    flash(lamp)
    for await _ in hidden { break }
    #expect(lamp.writes == [true, false])
    #expect(!lamp.isVisible)
  }
}
