import Affix
import AffixScheduling
import Dispatch
import Synchronization

/// What every scene plays on: the screen, scene time scaled by `--speed`, and the main queue,
/// on which all hosts are touched (on the main actor) and all frames are delivered.
///
/// A scene's script runs on a thread of its own and blocks in ``pause(_:)``; the work it starts
/// (timers, frames, animations) runs on the main actor, as it does in an app.
final class Stage: Sendable {
  let screen: Screen
  let speed: Double
  let scheduler: ScaledScheduler
  let frameClock: FrameSource

  /// Frames per second of scene time; at high speeds Dispatch delivers what it can.
  static let framesPerSecond = 30

  init(screen: Screen, speed: Double) {
    self.screen = screen
    self.speed = speed
    scheduler = ScaledScheduler(queue: .main, speed: speed)
    frameClock = FrameSource(clock: scheduler, framesPerSecond: Self.framesPerSecond)
  }

  /// Blocks the scene's thread for `duration` of scene time. Never call it on the main actor.
  func pause(_ duration: Duration) {
    let done = DispatchSemaphore(value: 0)
    let token = scheduler.schedule(after: duration) { done.signal() }
    done.wait()
    withExtendedLifetime(token) {}
  }

  /// Runs `action` on the main actor `delay` of scene time from now, and blocks the scene's
  /// thread until it has run: a script's timed step, ordered with the frames and timers it races.
  func run(after delay: Duration = .zero, _ action: @escaping @MainActor @Sendable () -> Void) {
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
  private let answer = Mutex<Bool?>(nil)

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
