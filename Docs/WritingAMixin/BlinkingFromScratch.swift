// The Blinking mixin of Tests/Fixtures/ThirdPartyMixin written without the kit, as a third
// party had to before it: the measurement of the guide's closing section (Docs/WritingAMixin.md).
// Type-checked by CI against Affix's public API (.ci/doc-samples.sh), warnings as errors; it
// needs the unchecked promises that the kit keeps for its users.
import Affix
import AffixScheduling
import Dispatch
import Foundation

public protocol Blinking: AnyObject {
  var isVisible: Bool { get set }
  var blinkClock: any SchedulingClock { get }
}

extension Blinking {
  public var blinkClock: any SchedulingClock { DispatchClock.main }

  public func blink(
    times: Int, every interval: Duration, isolation: isolated (any Actor)? = #isolation
  ) {
    guard times > 0, interval > .zero else {
      // No way into Diagnostics: a user's handler never hears of this.
      print("blink: blink(times: \(times), every: \(interval)) needs positive values; ignored.")
      return
    }
    let toggle = Callback(isolation: isolation) { [weak self] (visible: Bool) in
      self?.isVisible = visible
    }
    let blinker = Associations(of: self).capability(Blinker.self) { Blinker() }
    blinker.start(toggles: times * 2, every: interval, on: blinkClock, toggle: toggle)
  }

  public func stopBlinking() {
    Associations(of: self).capability(Blinker.self)?.stop()
  }

  public nonisolated(nonsending) func blinkFinished() async {
    await Associations(of: self).capability(Blinker.self)?.finished(isolation: #isolation)
  }
}

public final class Blinker: Capability {
  private struct State {
    var remaining = 0
    var toggle: Callback?
    var generation: UInt64 = 0
    var isRunning = false
    var token: CancellationToken?
    var isShutDown = false
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    var nextWaiterID: UInt64 = 0
  }

  private let state = Lock(State())

  func start(toggles: Int, every interval: Duration, on scheduler: any SchedulingClock, toggle: Callback)
  {
    let (generation, previous) = state.withLock { state -> (UInt64?, CancellationToken?) in
      guard !state.isShutDown else { return (nil, nil) }
      state.remaining = toggles
      state.toggle = toggle
      state.generation += 1
      state.isRunning = true
      defer { state.token = nil }
      return (state.generation, state.token)
    }
    previous?.cancel()
    guard let generation else { return }
    let token = try? scheduler.scheduleRepeating(every: interval) { [weak self] in
      self?.step(generation)
    }
    let kept = state.withLock { state -> Bool in
      guard state.isRunning, state.generation == generation else { return false }
      state.token = token
      return true
    }
    if !kept { token?.cancel() }
  }

  func stop() {
    end { _ in true }
    state.withLock { $0.toggle }?(true)
  }

  private func step(_ generation: UInt64) {
    let (remaining, toggle) = state.withLock { state -> (Int, Callback?) in
      guard state.isRunning, state.generation == generation else { return (-1, nil) }
      state.remaining -= 1
      return (state.remaining, state.toggle)
    }
    guard remaining >= 0 else { return }
    toggle?(remaining % 2 == 0)
    if remaining == 0 { end { $0.generation == generation } }
  }

  private func end(if matches: (State) -> Bool) {
    let ended = state.withLock { state -> (CancellationToken?, [CheckedContinuation<Void, Never>])? in
      guard state.isRunning, matches(state) else { return nil }
      state.isRunning = false
      defer {
        state.token = nil
        state.waiters = []
      }
      return (state.token, state.waiters.map(\.continuation))
    }
    guard let (token, waiters) = ended else { return }
    token?.cancel()
    for waiter in waiters { waiter.resume() }
  }

  func finished(isolation: isolated (any Actor)?) async {
    let id = state.withLock { state in
      defer { state.nextWaiterID += 1 }
      return state.nextWaiterID
    }
    await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          let waiting = state.withLock { state -> Bool in
            guard state.isRunning, !Task.isCancelled else { return false }
            state.waiters.append((id, continuation))
            return true
          }
          if !waiting { continuation.resume() }
        }
      },
      onCancel: {
        let waiter = state.withLock { state in
          state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
        }
        waiter?.continuation.resume()
      }, isolation: isolation)
  }

  public func didEnd(_ ending: CapabilityEnding) {
    state.withLock { $0.isShutDown = true }
    stop()
  }

  // Host death reaches the blinker only here, at the next sweep.
  deinit {
    state.withLock { $0.isShutDown = true }
    end { _ in true }
  }
}

// Copied from the library, each with its unchecked promise.

final class Lock<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  init(_ state: State) { self.state = state }

  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

struct Callback: @unchecked Sendable {
  let isolation: (any Actor)?
  private let body: (Bool) -> Void

  init(isolation: (any Actor)?, _ body: @escaping (Bool) -> Void) {
    self.isolation = isolation
    self.body = body
  }

  func callAsFunction(_ argument: Bool) {
    guard let isolation else { return body(argument) }
    if isolation === MainActor.shared {
      if MainQueue.isCurrent {
        MainActor.assumeIsolated { body(argument) }
      } else {
        Task { @MainActor in self.body(argument) }
      }
      return
    }
    Task { await Self.run(self, with: argument, on: isolation) }
  }

  private static func run(_ callback: Callback, with argument: Bool, on actor: isolated any Actor)
  {
    callback.body(argument)
  }
}

enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
