public import Affix
import AffixMotion
import AffixScheduling
public import Observation
import Synchronization

/// The capability behind a host's ``Dance`` handle: one per host, in the host's associated
/// storage, holding the host weakly.
///
/// You rarely touch it: `host.dance` (for ``Dancing`` types) and ``Dance/of(_:frames:fileID:line:)`` (for
/// any object) reach it. It is public so that it can be found and removed like any other
/// capability:
///
/// ```swift
/// Associations(of: view).removeCapability(Dancer.self)  // stops its animations; no later frame writes
/// ```
///
/// Isolation: the dancer is `Sendable` and keeps its state behind a lock, so that what reads or
/// changes the dancer alone (a handle's getters, `ended()`, its removal, its host's death) is
/// safe from any thread. The host's properties are read and written only in the isolation its
/// animations were declared in: the frames run there, and a call that writes the host (`start`,
/// `setProgress`, `finish`, ...) made elsewhere is reported and ignored.
///
/// Observation: the dancer is `Observable`, and the state a ``Dance`` handle shows of it
/// (``Dance/state``, ``Dance/isRunning``, ``Dance/progress``, ``Dance/groups``,
/// ``Dance/hasAnimation``, ``Dance/tag``, ``Dance/isReversed``) takes part in
/// `withObservationTracking(_:onChange:)` and `Observations`, for the whole host: a change to
/// any of its groups tells every tracker of that kind of state on the host. A tracker of
/// what runs is told of control calls, of animations that begin, end or change state in a
/// frame, and of the host's death; a tracker of ``Dance/progress`` also of every frame. Until
/// anything reads, a common frame pays nothing for it but a flag read under the lock it takes
/// anyway, and a frame that ends or changes an animation one atomic load. `onChange` runs on
/// the thread making the change: the caller's for a control call, the frame source's context
/// (or the host's actor) for a frame. A frame tells Observation after its change, once the
/// dancer's lock is released (with `willSet` and `didSet` together: only the frame knows what
/// it changes), so `onChange` then sees the new value; a control call tells it before.
public final class Dancer: Capability, Observable {
  private static let tags = Atomic(0)

  let host: AnyWeakReference
  let hostTypeName: String
  let state: StateLock
  /// Tells Observation of the dancer's changes; the clock's driver keeps a copy, to ask a
  /// frame's one question (whether anything has read) without reaching the dancer.
  let observation = LazyObservationRegistrar()

  init(host: AnyObject, clock: FrameSource) {
    self.host = AnyWeakReference(host)
    hostTypeName = String(describing: type(of: host))
    state = StateLock(State(clock: clock))
  }

  // The clock's driver holds the state, not the dancer: leaving it releases the state (and the
  // animations' closures) with the dancer.
  deinit {
    let aftermath = state.withLock { Self.abandon(&$0) }
    aftermath.subscription?.cancel()
    for (waiters, result) in aftermath.resumed { waiters.resumeAll(returning: result) }
    reportForgotten(aftermath.forgotten, why: "the host is gone")
  }

  /// Stops every animation without finishing it and unsubscribes from the frame source; no
  /// frame that begins afterwards writes the host, whatever the ending. Called in the host's
  /// isolation, where the frames run, nothing is written afterwards at all; called elsewhere, a
  /// frame already under way there may finish its write. Idempotent.
  public func didEnd(_ ending: CapabilityEnding) {
    let aftermath = changing(.all) {
      state.withLock { state -> Aftermath in
        state.isDetached = true
        return Self.abandon(&state)
      }
    }
    finish(aftermath, host: nil, at: nil, forgottenBecause: "the dance was detached")
  }

  static func nextTag() -> Int {
    tags.add(1, ordering: .relaxed).newValue
  }

  var clock: FrameSource { state.withLock { $0.clock } }

  var now: Double { clock.clock.now.sinceEpoch / .seconds(1) }

  // MARK: Reporting

  /// Reports a misuse of the group `selector` addresses, at the caller's line.
  func report(_ message: String, group selector: GroupSelector = .latest, at site: CallSite?) {
    let tag = state.withLock { state in
      state.index(of: selector).map { state.groups[$0].tag } ?? state.lastTag
    }
    report(message, tag: tag, at: site)
  }

  func report(_ message: String, tag: Int, at site: CallSite?) {
    let message = "\(hostTypeName) with dance.tag = \(tag): \(message)"
    if let site {
      Diagnostics.report(subsystem: "dance", message: message, fileID: site.fileID, line: site.line)
    } else {
      Diagnostics.report(subsystem: "dance", message: message)
    }
  }

  func reportForgotten(_ forgotten: [(tag: Int, declaredAt: CallSite)], why: String) {
    for (tag, site) in forgotten {
      report(
        "an animation was declared and never started (\(why)); call start(), pause() or"
          + " setProgress(to:) on it", tag: tag, at: site)
    }
  }

  // MARK: Running engine calls

  /// Runs `body` on the current animation of the group `selector` addresses, under the lock,
  /// then applies its effects, runs completions and chained animations, and (un)subscribes
  /// from the frame source, in that order, outside the lock. Reports a diagnostic instead when
  /// there is no animation, the host is gone, or the engine refuses the call.
  func perform(
    _ call: String, group selector: GroupSelector, at site: CallSite?, chaining: Bool = true,
    _ body: (inout AnimationEngine, Double) throws(AnimatorMisuse) -> AnimationEffects
  ) {
    guard let host = host.object else {
      hostDied()
      report("\(call) ignored: the host is gone", group: selector, at: site)
      return
    }
    let now = self.now
    let reducesMotion = ReducedMotion.isEnabled
    let aftermath = changing(.all) {
      performLocked(
        call, selector, now: now, reducesMotion: reducesMotion, chaining: chaining, body)
    }
    if let misuse = aftermath.misuse { report(misuse, group: selector, at: site) }
    finish(aftermath, host: host, at: site)
  }

  /// The locked section of ``perform(_:group:at:chaining:_:)``.
  private func performLocked(
    _ call: String, _ selector: GroupSelector, now: Double, reducesMotion: Bool, chaining: Bool,
    _ body: (inout AnimationEngine, Double) throws(AnimatorMisuse) -> AnimationEffects
  ) -> Aftermath {
    state.withLock { state -> Aftermath in
      guard let index = state.index(of: selector),
        var engine = state.groups[index].engine.take()
      else {
        var aftermath = Aftermath()
        aftermath.misuse = "\(call) ignored: there is no animation; call animate first"
        return aftermath
      }
      // Decided as the group starts, for the whole chain: a call that activates the first
      // animation finds it inactive.
      if engine.state == .inactive {
        engine.reducesMotion = state.groups[index].reducesMotion ?? reducesMotion
      }
      // Taken out and put back so that the engine's arrays stay uniquely referenced.
      do {
        let effects = try body(&engine, now)
        if engine.state != .inactive || effects.completedPosition != nil {
          state.groups[index].hasBeenActive = true
          state.groups[index].reducesMotion = engine.reducesMotion
        }
        return Self.settle(effects, engine: engine, group: index, state: &state, chaining: chaining)
      } catch {
        state.groups[index].engine = engine
        var aftermath = Aftermath()
        aftermath.misuse = "\(call) ignored: \(error)"
        return aftermath
      }
    }
  }

  /// Turns an engine's effects into work to do after unlocking; a group whose animation ended
  /// leaves the state (and takes its waiters) unless a chained animation follows. Indices of
  /// later groups move down when this one leaves.
  static func settle(
    _ effects: AnimationEffects, engine: AnimationEngine, group index: Int, state: inout State,
    chaining: Bool
  ) -> Aftermath {
    var aftermath = Aftermath()
    if let values = effects.values { aftermath.values.append(values) }
    aftermath.dropped = effects.dropped
    if effects.cutTraversals, state.groups[index].cutTag != state.groups[index].tag {
      state.groups[index].cutTag = state.groups[index].tag
      aftermath.cut.append((state.groups[index].tag, state.groups[index].declaredAt))
    }
    switch effects.outcome {
    case .none:
      state.groups[index].engine = engine
    case .completed(let position, let completions):
      // Velocities kept for an animation that ended before it started have nowhere to go.
      state.groups[index].carried = nil
      aftermath.completed.append((position, completions))
      if chaining, !state.groups[index].chain.isEmpty {
        let link = state.groups[index].chain.removeFirst()
        state.groups[index].isBeginningLink = true
        aftermath.next.append((state.groups[index].id, link))
      } else {
        let group = state.removeGroup(at: index)
        aftermath.resumed.append((group.waiters, position))
        if !group.hasBeenActive {
          aftermath.forgotten.append((group.tag, group.declaredAt))
        }
        aftermath.released.append(group)
      }
    case .abandoned:
      let group = state.removeGroup(at: index)
      aftermath.resumed.append((group.waiters, nil))
      aftermath.released.append(group)
    }
    if !state.isRunning, let subscription = state.subscription {
      aftermath.subscription = subscription
      state.subscription = nil
    }
    return aftermath
  }

  /// Drops every group without completions.
  static func abandon(_ state: inout State) -> Aftermath {
    var aftermath = Aftermath()
    let groups = state.removeAllGroups()
    for group in groups {
      aftermath.resumed.append((group.waiters, nil))
      if !group.hasBeenActive, group.engine != nil {
        aftermath.forgotten.append((group.tag, group.declaredAt))
      }
    }
    // Their closures are released with the aftermath, outside the lock.
    aftermath.released = groups
    aftermath.subscription = state.subscription
    state.subscription = nil
    return aftermath
  }

  /// Does, outside the lock, what a call left to do.
  func finish(
    _ aftermath: Aftermath, host: AnyObject?, at site: CallSite?,
    forgottenBecause reason: String = "another animation took all of its properties"
  ) {
    aftermath.subscription?.cancel()
    if let host {
      for values in aftermath.values { values.apply(to: host) }
    }
    reportForgotten(aftermath.forgotten, why: reason)
    for (tag, site) in aftermath.cut {
      report(
        "an animation repeats faster than its clock's frames can show: a frame begins at most "
          + "\(AnimationEngine.maximumTraversalsPerAdvance) repeats, and the rest were dropped",
        tag: tag, at: site)
    }
    var called: [AnimationCompletion] = []
    for (position, completions) in aftermath.completed {
      for completion in completions { completion(position) }
      called += completions
    }
    Self.resume(aftermath.resumed, after: called)
    if host != nil {
      for (group, link) in aftermath.next { begin(link, group: group) }
    }
    subscribeIfRunning()
    adviseIfRepeatingForever(at: site)
  }

  /// Resumes the waiters of `ended()` once the completions just called have run where they
  /// were written (on another actor, they are only enqueued there): a wait returns after them.
  private static func resume(
    _ resumed: [(Waiters<AnimatingPosition?>, AnimatingPosition?)],
    after completions: [AnimationCompletion]
  ) {
    // Nobody waiting, nothing to wait for: the completions are not kept a moment longer.
    guard !completions.isEmpty, resumed.contains(where: { $0.0.count > 0 }) else {
      for (waiters, result) in resumed { waiters.resumeAll(returning: result) }
      return
    }
    Task {
      for completion in completions { await completion.delivered() }
      for (waiters, result) in resumed { waiters.resumeAll(returning: result) }
    }
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
  func adviseIfRepeatingForever(at site: CallSite?) {
    let advice = state.withLock { state -> [(tag: Int, completions: Bool, chained: Bool)] in
      var advice: [(tag: Int, completions: Bool, chained: Bool)] = []
      for index in state.groups.indices {
        guard let engine = state.groups[index].engine, engine.state == .active,
          engine.repeatCount == nil, state.groups[index].advisedTag != state.groups[index].tag
        else { continue }
        let completions = engine.hasCompletions
        let chained = !state.groups[index].chain.isEmpty
        guard completions || chained else { continue }
        state.groups[index].advisedTag = state.groups[index].tag
        advice.append((state.groups[index].tag, completions, chained))
      }
      return advice
    }
    for (tag, completions, chained) in advice {
      if completions {
        report(
          "repeatingForever with completions: they run only when the animation is finished,"
            + " stopped or replaced, and it holds them until then; capture the host weakly in"
            + " them ([weak self]) or the host and its frame source stay alive for good",
          tag: tag, at: site)
      }
      if chained {
        report(
          "repeatingForever with animations chained by then: they never start, since it never"
            + " reaches its end, and it holds their blocks until it is finished, stopped or"
            + " replaced", tag: tag, at: site)
      }
    }
  }

  /// Starts a chained animation of group `id`: at once when its block can run here, else as
  /// soon as its isolation runs it.
  func begin(_ link: ChainLink, group id: Int) {
    link.begin((self, id, link.settings))
  }

  // MARK: The frame source

  /// Joins the clock's driver if an animation runs and the dancer has not joined yet. Joining
  /// happens outside the lock; a membership that lost a race is cancelled at once.
  func subscribeIfRunning() {
    let clock = state.withLock { state -> FrameSource? in
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

  /// Moves every group to `now` and writes their values; called by the clock's driver when a
  /// frame needs more than new values. A frame for a host that lives elsewhere is run there.
  func tick(at now: Double) {
    let isolation = state.withLock { $0.isolation }
    var context = FrameContext()
    guard context.writesHere(isolation) else {
      let frames = state.withLock { state -> IsolatedCallback<Void>? in
        guard let frames = state.frames else { return nil }
        let isOnItsWay = state.waitingFrame != nil
        state.waitingFrame = now
        return isOnItsWay ? nil : frames
      }
      frames?(())
      return
    }
    tickHere(at: now)
  }

  /// The frame waiting for the host's actor, on that actor: the newest the clock made.
  private func tickWaitingFrame() {
    guard let now = state.withLock({ $0.waitingFrame.take() }) else { return }
    tickHere(at: now)
  }

  /// The callback that runs frames on `actor`, made once for each actor the host is declared
  /// on. Call under the lock.
  func frames(on actor: any Actor, in state: inout State) {
    guard state.frames?.isolation !== actor else { return }
    state.frames = IsolatedCallback<Void>(on: actor) { [weak self] in
      self?.tickWaitingFrame()
    }
  }

  /// ``tick(at:)`` where the host lives.
  private func tickHere(at now: Double) {
    guard let host = host.object else {
      hostDied()
      return
    }
    var changesState = false
    let aftermath = state.withLock { state -> Aftermath in
      var aftermath = Aftermath()
      // Ids, not groups: a copy of a group that leaves would release its closures here, under
      // the lock.
      var running: [Int] = []
      for index in state.groups.indices where state.groups[index].isRunning {
        running.append(state.groups[index].id)
      }
      for id in running {
        guard let index = state.index(of: .id(id)),
          var engine = state.groups[index].engine.take()
        else { continue }
        let before = engine.state
        let effects = engine.advance(to: now)
        // A frame that only moves the fraction on leaves the trackers of what runs asleep.
        var ends = true
        if case .none = effects.outcome { ends = false }
        if ends || engine.state != before || !engine.isRunning { changesState = true }
        aftermath.merge(
          Self.settle(effects, engine: engine, group: index, state: &state, chaining: true))
      }
      if !state.isRunning, let subscription = state.subscription {
        aftermath.subscription = subscription
        state.subscription = nil
      }
      return aftermath
    }
    // Observation is told after the change, once the lock is released: only the frame knew
    // what it would change. After the values are written, before the completions run.
    let changed: ObservedAspects = changesState ? .all : .progress
    if aftermath.completed.isEmpty, aftermath.subscription == nil, aftermath.resumed.isEmpty,
      aftermath.next.isEmpty
    {
      for values in aftermath.values { values.apply(to: host) }
      announce(changed)
      return
    }
    announce(changed)
    finish(aftermath, host: host, at: nil)
  }

  /// The host died: stop, unsubscribe, write nothing, run no completions.
  func hostDied() {
    let aftermath = changing(.all) { state.withLock { Self.abandon(&$0) } }
    finish(aftermath, host: nil, at: nil, forgottenBecause: "the host is gone")
  }
}
