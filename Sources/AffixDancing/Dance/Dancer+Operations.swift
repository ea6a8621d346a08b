import Affix
import AffixScheduling

extension Dancer {
  /// Finishes the current animation where it is (running its completions with `.current`),
  /// then records and installs a new inactive one.
  func animate(
    duration: Double, timing: TimingParameters, record: (AnyObject) -> [AnimationTrack]
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
    let now = self.now
    let previous = state.withLock { state -> Aftermath in
      guard var engine = state.engine.take() else { return Aftermath() }
      let effects = engine.finishNow(at: .current, now: now)
      return Self.settle(effects, engine: engine, state: &state, chaining: false)
    }
    finish(previous, host: host)
    let tracks = record(host)
    state.withLock { state in
      guard !state.isDetached else { return }
      state.engine = AnimationEngine(tracks: tracks, timing: timing, duration: duration)
      state.tag = Self.nextTag()
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
    guard startNow else { return }
    guard let host = host.object else {
      hostDied()
      report("then ignored: the host is gone")
      return
    }
    begin(link, on: host)
  }

  /// Waits until the current animation, and everything chained after it, has ended.
  func ended() async -> AnimatingPosition? {
    await withCheckedContinuation { continuation in
      let waiting = state.withLock { state -> Bool in
        guard state.engine != nil else { return false }
        state.waiters.append(continuation)
        return true
      }
      if !waiting { continuation.resume(returning: nil) }
    }
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
