import Affix
import AffixScheduling

extension Dancer {
  /// Finishes the current animation where it is (running its completions with `.current`),
  /// then records and installs a new inactive one.
  func animate(
    duration: Double, timing: TimingParameters, isolation: (any Actor)?,
    record: (AnyObject) -> [AnimationTrack]
  ) {
    guard let host = host.object else {
      hostDied()
      report("animate ignored: the host is gone")
      return
    }
    var duration = duration
    if !duration.isFinite || duration < 0 {
      report("animate: duration \(duration) is not a finite number of seconds >= 0; using 0")
      duration = 0
    }
    let tracks = record(host)
    state.withLock { $0.hostIsolation = isolation }
    // The animation in motion that this one replaces, as it was just before it was finished.
    var moving: (engine: AnimationEngine, time: Double)?
    var installed: Int?
    // A completion of the animation replaced here may itself declare one: that one is
    // replaced in turn (its completions run), never overwritten unseen.
    while true {
      let now = self.now
      let previous = state.withLock { state -> Aftermath? in
        guard var engine = state.engine.take() else {
          guard !state.isDetached else { return nil }
          state.engine = AnimationEngine(tracks: tracks, timing: timing, duration: duration)
          state.tag = Self.nextTag()
          installed = state.tag
          return nil
        }
        if moving == nil, engine.isRunning { moving = (engine, now) }
        let effects = engine.finishNow(at: .current, now: now)
        return Self.settle(effects, engine: engine, state: &state, chaining: false)
      }
      guard let previous else { break }
      finish(previous, host: host)
    }
    if let moving, let installed {
      rememberVelocities(of: moving.engine, at: moving.time, for: installed, on: host)
    }
  }

  /// Reads the start values of an animation about to become active from the host, as UIKit
  /// runs an animator's block when it starts: a property moved since `animate` does not jump
  /// back. Outside the lock, since reading a property runs its getter.
  ///
  /// With `keepingVelocity`, the animation starts now: properties that the animation it
  /// replaced was moving keep their velocity, if its timing can carry it.
  func readStartValues(keepingVelocity: Bool = false) {
    let (declared, carried) = state.withLock {
      state -> (TrackList?, CarriedVelocities?) in
      guard state.engine?.state == .inactive else { return (nil, nil) }
      // Whatever this start does, the velocities were the moment's only.
      let carried = state.carried.take()
      return (state.engine?.tracks, carried?.tag == state.tag ? carried : nil)
    }
    guard let declared, let host = host.object else { return }
    let velocities =
      keepingVelocity && declared.timing.carriesVelocity
      ? carried?.velocities(at: now, frame: clock.interval) : nil
    let fresh = declared.entries.map { entry in
      let track = entry.track.startingFromCurrentValue(on: host)
      let carrying = velocities?[track.identity(on: host)].flatMap { track.carrying($0) }
      return TrackEntry(
        carrying ?? track, startFraction: entry.startFraction, endFraction: entry.endFraction)
    }
    state.withLock { state in
      guard state.engine?.tracks === declared else { return }
      try? state.engine?.replaceTracks(fresh)
    }
  }

  /// Applies `change` to the animation that was declared last: the last chained one if any,
  /// else the current one.
  func changeLatest(
    _ call: String, engine change: (inout AnimationEngine) throws(AnimatorMisuse) -> Void,
    link changeLink: (inout ChainLink) -> Void
  ) {
    let misuse = state.withLock { state -> String? in
      if !state.chain.isEmpty {
        changeLink(&state.chain[state.chain.count - 1])
        return nil
      }
      guard var engine = state.engine.take() else {
        return "\(call) ignored: there is no animation; call animate first"
      }
      defer { state.engine = engine }
      do {
        try change(&engine)
        return nil
      } catch {
        return "\(call) ignored: \(error)"
      }
    }
    if let misuse { report(misuse) }
    adviseIfRepeatingForever()
  }

  /// Queues `link` to start when the last declared animation reaches its end; with no
  /// animation at all, it starts now.
  func chain(_ link: ChainLink) {
    let startNow = state.withLock { state -> Bool in
      guard !state.isDetached else { return false }
      if state.engine == nil { return true }
      state.chain.append(link)
      return false
    }
    guard startNow else { return adviseIfRepeatingForever() }
    guard host.object != nil else {
      hostDied()
      report("then ignored: the host is gone")
      return
    }
    begin(link)
  }

  /// Waits until the current animation, and everything chained after it, has ended; nil at
  /// once when the task is cancelled, or when the host's values are released after it died.
  func ended(isolation: isolated (any Actor)?) async -> AnimatingPosition? {
    guard watchHost() else { return nil }
    // An animation that is neither there nor about to begin has ended: nil at once.
    return await waiters.wait(ifCancelled: nil) {
      state.withLock { $0.engine != nil || $0.isBeginningLink } ? nil : .some(nil)
    }
  }

  /// Puts a watch in the host's storage, released with the host's other values whatever holds
  /// the dancer; false if the host is gone. Synchronous, so that no strong reference to the
  /// host lives on in the frame of a waiting task.
  private func watchHost() -> Bool {
    guard let host = host.object else { return false }
    _ = Associations(of: host).value(for: HostWatchKey.self) { HostWatch(waiters: waiters) }
    return true
  }

  func read<Value>(_ body: (AnimationEngine?) -> Value) -> Value {
    state.withLock { body($0.engine) }
  }

  func useClock(_ clock: FrameClock) {
    let refused = state.withLock { state -> Bool in
      guard state.clock !== clock else { return false }
      guard state.engine == nil else { return true }
      state.clock = clock
      return false
    }
    if refused {
      report("kept the current frame clock: another was asked for while an animation exists")
    }
  }
}

/// The key of a host's ``HostWatch``.
enum HostWatchKey: AssociatedKey {
  typealias Value = HostWatch?
}

/// Lives in a host's associated storage to tell its dancer's waiters that the host died: the
/// storage releases it when it releases the host's values, while the dancer itself may live on
/// in handles that someone still holds.
final class HostWatch: Sendable {
  private let waiters: Waiters<AnimatingPosition?>

  init(waiters: Waiters<AnimatingPosition?>) {
    self.waiters = waiters
  }

  deinit {
    waiters.resumeAll(returning: nil)
  }
}
