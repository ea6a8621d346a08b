public import Affix
import AffixScheduling
import Synchronization

/// The capability behind a host's ``Dance`` handle: one per host, in the host's associated
/// storage, holding the host weakly.
///
/// You rarely touch it: `host.dance` (for ``Dancing`` types) and ``Dance/of(_:clock:)`` (for
/// any object) reach it. It is public so that it can be found and detached like any other
/// capability:
///
/// ```swift
/// Associations(of: view).detach(Dancer.self)  // stops its animation, nothing more is written
/// ```
///
/// Isolation: the dancer is `Sendable` and keeps its state behind a lock, so calls from any
/// thread are safe for the dancer. The host's properties, however, are read and written on the
/// frame clock's context (every frame), and on the calling thread for calls that change values
/// at once (`animate`, `setProgress`, `finish`): make those calls on the clock's context too,
/// the main queue for `FrameClock.shared`, as you would with UIKit.
public final class Dancer: Capability {
  private static let tags = Atomic(0)

  let host: AnyWeakReference
  let hostTypeName: String
  let state: StateLock

  struct ChainLink: Sendable {
    /// What the link's animation is, apart from its tracks.
    struct Settings: Sendable {
      let duration: Double
      let timing: TimingParameters
      var completions: [AnimationCompletion] = []
      var repeatCount: Int? = 1
      var autoreverses = false
      var pausesOnCompletion = false
      var scrubsLinearly = true
    }

    var settings: Settings
    /// Records the link's tracks and installs them with ``Dancer/install(_:tracks:on:)``, in
    /// the isolation its block was written in.
    let begin: IsolatedCallback<(Dancer, Settings)>
  }

  /// A dancer's state under its lock. `withLock` is inlinable, so every use of it, the
  /// frame's among them, is specialized and inlined.
  typealias StateLock = LockedState<State>

  struct State {
    // First, next to the engine's first fields: each frame reads it.
    var isDetached = false
    var engine: AnimationEngine?
    var clock: FrameClock
    var tag = 0
    var subscription: CancellationToken?
    var chain: [ChainLink] = []
    /// A chained animation whose block runs later on its own isolation: the animation stays
    /// "there" for `ended()` and for calls until it is installed.
    var isBeginningLink = false
    /// The tag of the last animation told that it repeats forever while holding completions
    /// or chained animations, so that it is told once.
    var advisedTag = 0
    /// The velocities of the properties the animation just replaced was moving, for the
    /// animation that replaced it to keep when it starts.
    var carried: CarriedVelocities?
    /// Where the host lives, and its properties are written: the isolation of the last
    /// `animate`; `nil` for a nonisolated host, written on the clock's context.
    var hostIsolation: (any Actor)?
  }

  /// Work collected under the lock and done after unlocking.
  struct Aftermath {
    var values: FrameValues?
    var completed: (AnimatingPosition, [AnimationCompletion])?
    /// Whether the waiters of `ended()` are to be resumed, with `waiterResult`.
    var resumesWaiters = false
    var waiterResult: AnimatingPosition?
    var next: ChainLink?
    var misuse: String?
    var subscription: CancellationToken?
  }

  init(host: AnyObject, clock: FrameClock) {
    self.host = AnyWeakReference(host)
    hostTypeName = String(describing: type(of: host))
    state = StateLock(State(clock: clock))
  }

  /// Tasks waiting in `ended()`.
  let waiters = Waiters<AnimatingPosition?>()

  // The clock's driver holds the state, not the dancer: leaving it releases the state (and the
  // animation's closures) with the dancer.
  deinit {
    let subscription = state.withLock { $0.subscription.take() }
    subscription?.cancel()
    waiters.resumeAll(returning: nil)
  }

  /// Stops the animation without finishing it and unsubscribes from the frame clock; nothing
  /// is written to the host afterwards. Idempotent.
  public func didDetach() {
    let aftermath = state.withLock { state -> Aftermath in
      state.isDetached = true
      return Self.abandon(&state)
    }
    finish(aftermath, host: nil)
  }

  static func nextTag() -> Int {
    tags.add(1, ordering: .relaxed).newValue
  }

  var clock: FrameClock { state.withLock { $0.clock } }

  var now: Double { clock.scheduler.now.seconds }

  // MARK: Reporting

  func report(_ message: String) {
    let tag = state.withLock { $0.tag }
    Diagnostics.report("dance", "\(hostTypeName) with dance.tag = \(tag): \(message)")
  }

  // MARK: Running engine calls

  /// Runs `body` on the current animation under the lock, then applies its effects, runs
  /// completions and chained animations, and (un)subscribes from the frame clock, in that
  /// order, outside the lock. Reports a diagnostic instead when there is no animation, the
  /// host is gone, or the engine refuses the call.
  func perform(
    _ call: String, chaining: Bool = true,
    _ body: (inout AnimationEngine, Double) throws(AnimatorMisuse) -> AnimationEffects
  ) {
    guard let host = host.object else {
      hostDied()
      report("\(call) ignored: the host is gone")
      return
    }
    let now = self.now
    let reducesMotion = ReducedMotion.isEnabled
    let aftermath = state.withLock { state -> Aftermath in
      guard var engine = state.engine.take() else {
        var aftermath = Aftermath()
        aftermath.misuse = "\(call) ignored: there is no animation; call animate first"
        return aftermath
      }
      // Decided as the animation starts: a call that activates it finds it inactive.
      if engine.state == .inactive { engine.reducesMotion = reducesMotion }
      // Taken out and put back so that the engine's arrays stay uniquely referenced.
      do {
        let effects = try body(&engine, now)
        return Self.settle(effects, engine: engine, state: &state, chaining: chaining)
      } catch {
        state.engine = engine
        var aftermath = Aftermath()
        aftermath.misuse = "\(call) ignored: \(error)"
        return aftermath
      }
    }
    if let misuse = aftermath.misuse { report(misuse) }
    finish(aftermath, host: host)
  }

  /// Turns an engine's effects into work to do after unlocking; an ended animation leaves
  /// the state (and takes its waiters and, if it ran to its end, the next chained animation).
  static func settle(
    _ effects: AnimationEffects, engine: AnimationEngine, state: inout State,
    chaining: Bool
  ) -> Aftermath {
    var aftermath = Aftermath()
    aftermath.values = effects.values
    switch effects.outcome {
    case .none:
      state.engine = engine
    case .completed(let position, let completions):
      // Velocities kept for an animation that ended before it started have nowhere to go.
      state.carried = nil
      aftermath.completed = (position, completions)
      if chaining, !state.chain.isEmpty {
        aftermath.next = state.chain.removeFirst()
      } else {
        state.chain = []
        aftermath.resumesWaiters = true
        aftermath.waiterResult = position
      }
    case .abandoned:
      state.carried = nil
      aftermath.resumesWaiters = true
      state.chain = []
    }
    if !state.isRunning, let subscription = state.subscription {
      aftermath.subscription = subscription
      state.subscription = nil
    }
    return aftermath
  }

  /// Drops the animation and its chain without completions.
  static func abandon(_ state: inout State) -> Aftermath {
    var aftermath = Aftermath()
    state.engine = nil
    state.carried = nil
    state.chain = []
    aftermath.resumesWaiters = true
    aftermath.subscription = state.subscription
    state.subscription = nil
    return aftermath
  }

  /// Does, outside the lock, what a call left to do.
  func finish(_ aftermath: Aftermath, host: AnyObject?) {
    aftermath.subscription?.cancel()
    if let host, let values = aftermath.values {
      values.apply(to: host)
    }
    if let (position, completions) = aftermath.completed {
      for completion in completions { completion(position) }
    }
    if aftermath.resumesWaiters { waiters.resumeAll(returning: aftermath.waiterResult) }
    if let next = aftermath.next, host != nil {
      begin(next)
    }
    subscribeIfRunning()
    adviseIfRepeatingForever()
  }

  /// Reports, once per animation, an active animation that repeats forever and holds closures
  /// waiting for its end.
  ///
  /// It never reaches its end, so its completions run only when it is finished, stopped or
  /// replaced, its chained animations never start, and the running animation holds all of them
  /// until then. One that captures the host strongly closes a cycle (host, dancer, animation,
  /// closure, host) that nothing ends: the host outlives everyone who uses it and the clock
  /// ticks for it forever. A closure's captures cannot be seen, so the cycle can be neither
  /// detected nor broken from here; the combination that makes it possible is what is reported.
  func adviseIfRepeatingForever() {
    let advice = state.withLock { state -> (completions: Bool, chained: Bool)? in
      guard state.engine?.state == .active, state.engine?.repeatCount == nil,
        state.advisedTag != state.tag
      else { return nil }
      let completions = state.engine?.hasCompletions == true
      let chained = !state.chain.isEmpty
      guard completions || chained else { return nil }
      state.advisedTag = state.tag
      return (completions, chained)
    }
    guard let advice else { return }
    if advice.completions {
      report(
        "repeatingForever with completions: they run only when the animation is finished,"
          + " stopped or replaced, and it holds them until then; capture the host weakly in them"
          + " ([weak self]) or the host and its frame clock stay alive for good")
    }
    if advice.chained {
      report(
        "repeatingForever with animations chained by then: they never start, since it never"
          + " reaches its end, and it holds their blocks until it is finished, stopped or replaced")
    }
  }

  /// Starts a chained animation: at once when its block can run here, else as soon as its
  /// isolation runs it.
  func begin(_ link: ChainLink) {
    if !link.begin.runsInline {
      state.withLock { $0.isBeginningLink = true }
    }
    link.begin((self, link.settings))
  }

  /// Installs and starts a chained animation whose tracks were just recorded on `host`.
  func install(_ link: ChainLink.Settings, tracks: [AnimationTrack], on host: AnyObject) {
    let now = self.now
    let reducesMotion = ReducedMotion.isEnabled
    let aftermath = state.withLock { state -> Aftermath in
      state.isBeginningLink = false
      guard !state.isDetached else { return Aftermath() }
      var engine = AnimationEngine(tracks: tracks, timing: link.timing, duration: link.duration)
      for completion in link.completions { engine.addCompletion(completion) }
      try? engine.setRepeat(count: link.repeatCount, autoreverses: link.autoreverses)
      engine.pausesOnCompletion = link.pausesOnCompletion
      engine.scrubsLinearly = link.scrubsLinearly
      engine.reducesMotion = reducesMotion
      // A completion of the animation that just ended, or this link's own block, declared a
      // new animation: as any new animation does, it replaces what was queued.
      guard state.engine == nil else {
        state.chain = []
        return Aftermath()
      }
      state.tag = Self.nextTag()
      let effects = (try? engine.start(at: now)) ?? AnimationEffects()
      return Self.settle(effects, engine: engine, state: &state, chaining: true)
    }
    finish(aftermath, host: host)
  }

  // MARK: The frame clock

  /// Joins the clock's driver if the animation runs and has not joined yet. Joining happens
  /// outside the lock; a membership that lost a race is cancelled at once.
  func subscribeIfRunning() {
    let clock = state.withLock { state -> FrameClock? in
      state.isRunning && state.subscription == nil ? state.clock : nil
    }
    guard let clock else { return }
    let token = DanceDriver.add(self, to: clock)
    let unwanted = state.withLock { state -> CancellationToken? in
      guard state.isRunning, state.subscription == nil else { return token }
      state.subscription = token
      return nil
    }
    unwanted?.cancel()
  }

  /// The values of the common frame, which stays within the current segment of a running
  /// animation; nil when the frame needs the full `tick(at:)`.
  @inline(__always)
  static func advanceWithinSegment(_ state: StateLock, to now: Double) -> FrameValues? {
    state.withLock { state in
      state.isDetached ? nil : state.engine?.advanceWithinSegment(to: now)
    }
  }

  /// The common frame as the clock's driver runs it: moves a running animation on within its
  /// segment and writes its values into `host`, through the track list `memo` keeps. Returns
  /// false, having changed nothing, when the frame needs the full `tick(at:)`.
  ///
  /// The lock is held only to move the animation on. The values are written after it, through
  /// the memo's reference to the tracks: the animation's list is compared with it by address
  /// under the lock, and taken (one reference) only when it changed, so that a frame costs no
  /// reference counting for the tracks.
  @inline(__always)
  static func writeCommonFrame(
    _ state: StateLock, memo: FrameMemo, to now: Double, host: AnyObject
  ) -> Bool {
    let remembered = memo.address
    var changed: TrackList?
    let step = state.withLock { state -> AnimationEngine.CommonFrame? in
      guard !state.isDetached, Self.writesHere(state.hostIsolation),
        let step = state.engine?.commonFrame(to: now)
      else { return nil }
      if step.tracks != remembered { changed = state.engine?.tracks }
      return step
    }
    guard let step else { return false }
    if let changed { memo.remember(changed) }
    memo.withTracks { $0.apply(fraction: step.fraction, progress: step.progress, to: host) }
    return true
  }

  /// Whether a write to a host that lives in `isolation` may happen here, now: always for a
  /// nonisolated host; for another only where its isolation runs (the main queue, for the main
  /// actor).
  @inline(__always)
  static func writesHere(_ isolation: (any Actor)?) -> Bool {
    guard let isolation else { return true }
    return IsolatedCallback<Void>(isolation: isolation) {}.runsInline
  }

  /// Moves the animation to `now` and writes its values; called by the clock's driver when a
  /// frame needs more than new values. A frame for a host that lives elsewhere is run there.
  func tick(at now: Double) {
    let isolation = state.withLock { $0.hostIsolation }
    guard Self.writesHere(isolation) else {
      IsolatedCallback<Double>(isolation: isolation) { [weak self] now in
        self?.tickHere(at: now)
      }(now)
      return
    }
    tickHere(at: now)
  }

  /// ``tick(at:)`` where the host lives.
  private func tickHere(at now: Double) {
    guard let host = host.object else {
      hostDied()
      return
    }
    // The common frame stays within the current segment: it only moves progress on and writes
    // the values, with no effects to collect.
    if let values = Self.advanceWithinSegment(state, to: now) {
      values.apply(to: host)
      return
    }
    let aftermath = state.withLock { state -> Aftermath in
      guard var engine = state.engine.take() else {
        var aftermath = Aftermath()
        aftermath.subscription = state.subscription
        state.subscription = nil
        return aftermath
      }
      let effects = engine.advance(to: now)
      return Self.settle(effects, engine: engine, state: &state, chaining: true)
    }
    if aftermath.completed == nil, aftermath.subscription == nil, !aftermath.resumesWaiters,
      aftermath.next == nil
    {
      aftermath.values?.apply(to: host)
      return
    }
    finish(aftermath, host: host)
  }

  /// The host died: stop, unsubscribe, write nothing, run no completions.
  func hostDied() {
    let aftermath = state.withLock { Self.abandon(&$0) }
    finish(aftermath, host: nil)
  }
}

extension Dancer.State {
  var isRunning: Bool { engine?.isRunning == true && !isDetached }

}

extension SchedulerInstant {
  var seconds: Double {
    let components = sinceEpoch.components
    return Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
