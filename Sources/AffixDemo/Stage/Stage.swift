import Affix
import AffixScheduling
import Dispatch

/// What every scene plays on: the screen, scene time scaled by `--speed`, and the main queue,
/// on which all hosts are touched (on the main actor) and all frames are delivered.
///
/// A scene's script runs on a thread of its own and blocks in ``pause(_:)``; the work it starts
/// (timers, frames, animations) runs on the main actor, as it does in an app.
///
/// With `--virtual-time` scene time is a `VirtualClock`'s: the script moves it on, on the main
/// queue, by each pause, each delayed step and frame by frame while it waits, so that every
/// timer, frame and step comes in the same order at the same scene time however loaded the
/// machine is, as fast as it can. It is how the tests play the scenes.
final class Stage: Sendable {
  let screen: Screen
  let speed: Double
  let scheduler: any SchedulingClock
  let frameClock: FrameSource
  /// The clock the script moves on, with `--virtual-time`; `nil` in real time.
  private let virtual: VirtualClock?

  /// Frames per second of scene time; at high speeds Dispatch delivers what it can.
  static let framesPerSecond = 30

  init(screen: Screen, speed: Double, virtualTime: Bool = false) {
    self.screen = screen
    self.speed = speed
    if virtualTime {
      let clock = VirtualClock()
      virtual = clock
      scheduler = clock
    } else {
      virtual = nil
      scheduler = ScaledScheduler(queue: .main, speed: speed)
    }
    frameClock = FrameSource(clock: scheduler, framesPerSecond: Self.framesPerSecond)
  }

  /// Moves virtual time on by `duration` on the main queue, running what falls due there, in
  /// order, as Dispatch would run it in real time.
  private func advance(_ virtual: VirtualClock, by duration: Duration) {
    DispatchQueue.main.sync { virtual.advance(by: duration) }
  }

  /// Blocks the scene's thread for `duration` of scene time. Never call it on the main actor.
  func pause(_ duration: Duration) {
    if let virtual { return advance(virtual, by: duration) }
    let done = DispatchSemaphore(value: 0)
    let token = scheduler.schedule(after: duration) { done.signal() }
    done.wait()
    withExtendedLifetime(token) {}
  }

  /// Runs `action` on the main actor `delay` of scene time from now, and blocks the scene's
  /// thread until it has run: a script's timed step, ordered with the frames and timers it races.
  func run(after delay: Duration = .zero, _ action: @escaping @MainActor @Sendable () -> Void) {
    if let virtual {
      // After what falls due by then, as a timer scheduled now for then would run.
      return DispatchQueue.main.sync {
        virtual.advance(by: delay)
        MainActor.assumeIsolated { action() }
      }
    }
    let done = DispatchSemaphore(value: 0)
    let token = scheduler.schedule(after: delay) {
      // The scheduler runs its actions on the main queue, which the main actor runs on.
      MainActor.assumeIsolated { action() }
      done.signal()
    }
    done.wait()
    withExtendedLifetime(token) {}
  }

  /// Runs `body` on the main actor and returns its result: the way a script touches its hosts.
  func perform<T: Sendable>(_ body: @MainActor @Sendable () -> T) -> T {
    DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
  }

  /// Blocks the scene's thread until `condition`, checked on the main queue at every frame, holds,
  /// or `limit` of scene time has passed; returns whether it held.
  @discardableResult
  func wait(
    upTo limit: Duration, until condition: @escaping @Sendable () -> Bool
  ) -> Bool {
    if let virtual {
      // Checked at every frame, as in real time; each frame's step lets the main queue run
      // what the frame handed it before the next.
      let deadline = virtual.now + limit
      while true {
        if DispatchQueue.main.sync(execute: { condition() }) { return true }
        if virtual.now >= deadline { return false }
        advance(virtual, by: frameClock.interval)
      }
    }
    let done = DispatchSemaphore(value: 0)
    let deadline = scheduler.now + limit
    let scheduler = self.scheduler
    let outcome = Outcome()
    let subscription = frameClock.subscribe { _ in
      if condition() {
        outcome.finish(true) { done.signal() }
      } else if scheduler.now >= deadline {
        outcome.finish(false) { done.signal() }
      }
    }
    done.wait()
    subscription.cancel()
    return outcome.value
  }
}

/// The first answer to a wait, given once however many frames race to give it.
private final class Outcome: Sendable {
  private let answer = LockedState<Bool?>(nil)

  var value: Bool {
    answer.withLock { $0 ?? false }
  }

  func finish(_ value: Bool, then signal: () -> Void) {
    let isFirst = answer.withLock { answer in
      guard answer == nil else { return false }
      answer = value
      return true
    }
    if isFirst { signal() }
  }
}
