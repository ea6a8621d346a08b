import Affix
import AffixMotion
import AffixScheduling

extension Dancer {
  /// Records a new group and installs it, inactive, after taking the properties it writes from
  /// the host's other groups; returns its id, or nil when the host is gone.
  func animate(
    duration: Double, timing: TimingParameters, isolation: any Actor, at site: CallSite,
    record: (AnyObject) -> [AnimationTrack]
  ) -> Int? {
    guard let host = host.object else {
      hostDied()
      report("animate ignored: the host is gone", at: site)
      return nil
    }
    var duration = duration
    if !duration.isFinite || duration < 0 {
      report(
        "animate: duration \(duration) is not a finite number of seconds >= 0; using 0", at: site)
      duration = 0
    }
    let tracks = record(host)
    let taken = takeProperties(of: tracks, from: nil, on: host, at: site)
    let time = now
    // `host.dance` now addresses the new group: what runs, and how far, change.
    return changing(.all) { declareLocked(tracks, timing, duration, isolation, taken, time, site) }
  }

  /// The locked section of `animate`: installs the new group.
  private func declareLocked(
    _ tracks: [AnimationTrack], _ timing: TimingParameters, _ duration: Double,
    _ isolation: any Actor, _ taken: [AnyKeyPath: TrackVelocity], _ time: Double,
    _ site: CallSite
  ) -> Int? {
    state.withLock { state -> Int? in
      guard !state.isDetached else { return nil }
      state.isolation = HostIsolation(isolation)
      state.actor = isolation
      frames(on: isolation, in: &state)
      let tag = Self.nextTag()
      let group = Group(
        id: tag, engine: AnimationEngine(tracks: tracks, timing: timing, duration: duration),
        tag: tag, declaredAt: site)
      if !taken.isEmpty {
        group.carried = CarriedVelocities(tag: tag, time: time, byProperty: taken)
      }
      state.append(group)
      state.lastTag = tag
      return tag
    }
  }

  /// Takes the properties `tracks` write from every group but `keeper`: the later declaration
  /// wins a property. A group left with nothing to animate ends where it stands (its
  /// completions get `.current`); the others run on without those properties. Returns the
  /// velocities the taken properties were moving at, for a spring to keep.
  ///
  /// Names the properties and measures the velocities outside the lock (both run the values'
  /// code), then changes only groups whose tracks are still those it read; repeats while
  /// completions that ran declare more.
  func takeProperties(
    of tracks: [AnimationTrack], from keeper: Int?, on host: AnyObject, at site: CallSite?
  ) -> [AnyKeyPath: TrackVelocity] {
    guard !tracks.isEmpty else { return [:] }
    let identities = Set(tracks.map { $0.identity(on: host) })
    var velocities: [AnyKeyPath: TrackVelocity] = [:]
    // Each pass either changes nothing (and ends) or takes from a group; the bound only guards
    // against completions that declare animations without end.
    for _ in 0..<64 {
      let time = now
      let others = state.withLock { state in
        state.groups.compactMap { group -> (id: Int, engine: AnimationEngine)? in
          guard group.id != keeper, let engine = group.engine else { return nil }
          return (group.id, engine)
        }
      }
      var changes: [(id: Int, tracks: TrackList, keep: [TrackEntry])] = []
      for (id, engine) in others {
        let entries = engine.entries
        let keep = entries.filter { !identities.contains($0.track.identity(on: host)) }
        guard keep.count < entries.count else { continue }
        changes.append((id, engine.tracks, keep))
        if let motion = engine.motion(at: time) {
          let moving = engine.tracks.velocities(
            from: motion.before, to: motion.after, over: motion.span, on: host)
          for (property, velocity) in moving where identities.contains(property) {
            velocities[property] = velocity
          }
        }
      }
      guard !changes.isEmpty else { break }
      let aftermath = changing(.all) { takeLocked(changes, at: time) }
      finish(aftermath, host: host, at: site)
    }
    return velocities
  }

  /// The locked section of `takeProperties`: changes the groups whose tracks are still those
  /// read.
  private func takeLocked(
    _ changes: [(id: Int, tracks: TrackList, keep: [TrackEntry])], at time: Double
  ) -> Aftermath {
    state.withLock { state -> Aftermath in
      var aftermath = Aftermath()
      for change in changes {
        guard let index = state.index(of: .id(change.id)),
          var engine = state.groups[index].engine.take()
        else { continue }
        guard engine.tracks === change.tracks else {
          state.groups[index].engine = engine
          continue
        }
        if change.keep.isEmpty {
          let effects = engine.finishNow(at: .current, now: time)
          aftermath.merge(
            Self.settle(effects, engine: engine, group: index, state: &state, chaining: false))
        } else {
          engine.keepTracks(change.keep)
          state.groups[index].engine = engine
        }
      }
      return aftermath
    }
  }

  /// Reads the start values of an animation about to become active from the host, as UIKit
  /// runs an animator's block when it starts: a property moved since `animate` does not jump
  /// back. Outside the lock, since reading a property runs its getter.
  ///
  /// With `keepingVelocity`, the animation starts now: properties that it took from moving
  /// groups keep their velocity, if its timing can carry it.
  func readStartValues(group selector: GroupSelector, keepingVelocity: Bool = false) {
    let (declared, carried) = state.withLock {
      state -> (TrackList?, CarriedVelocities?) in
      guard let index = state.index(of: selector),
        state.groups[index].engine?.state == .inactive
      else { return (nil, nil) }
      // Whatever this start does, the velocities were the moment's only.
      let carried = state.groups[index].carried.take()
      let tag = state.groups[index].tag
      return (state.groups[index].engine?.tracks, carried?.tag == tag ? carried : nil)
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
      guard let index = state.index(of: selector),
        state.groups[index].engine?.tracks === declared
      else { return }
      try? state.groups[index].engine?.replaceTracks(fresh)
    }
  }

  /// Applies `change` to the animation of the group `selector` addresses that was declared
  /// last: its last chained one if any, else its current one.
  func changeLatest(
    _ call: String, group selector: GroupSelector, at site: CallSite?,
    engine change: (inout AnimationEngine) throws(AnimatorMisuse) -> Void,
    link changeLink: (inout ChainLink) -> Void
  ) {
    let misuse = state.withLock { state -> String? in
      guard let index = state.index(of: selector) else {
        return "\(call) ignored: there is no animation; call animate first"
      }
      if !state.groups[index].chain.isEmpty {
        changeLink(&state.groups[index].chain[state.groups[index].chain.count - 1])
        return nil
      }
      guard var engine = state.groups[index].engine.take() else {
        return "\(call) ignored: the animation is about to begin; set it in its block"
      }
      defer { state.groups[index].engine = engine }
      do {
        try change(&engine)
        return nil
      } catch {
        return "\(call) ignored: \(error)"
      }
    }
    if let misuse { report(misuse, group: selector, at: site) }
    adviseIfRepeatingForever(at: site)
  }

  /// Reads the animation of the group `selector` addresses that was declared last: its last
  /// chained one if any, else its current one; `fallback` without a group.
  func readLatest<Value: Sendable>(
    group selector: GroupSelector, engine read: (AnimationEngine) -> Value,
    link readLink: (ChainLink.Settings) -> Value, fallback: Value
  ) -> Value {
    state.withLock { state in
      guard let index = state.index(of: selector) else { return fallback }
      if let link = state.groups[index].chain.last { return readLink(link.settings) }
      return state.groups[index].engine.map(read) ?? fallback
    }
  }

  /// Queues `link` to start when the last declared animation of the group `selector` addresses
  /// reaches its end; with no such group, it starts now, as a group of its own. Returns the
  /// group it belongs to.
  func chain(_ link: ChainLink, group selector: GroupSelector, at site: CallSite) -> Int? {
    let (group, startNow) = changing(.all) { chainLocked(link, group: selector, at: site) }
    guard startNow, let group else {
      adviseIfRepeatingForever(at: site)
      return group
    }
    guard host.object != nil else {
      hostDied()
      report("then ignored: the host is gone", at: site)
      return nil
    }
    begin(link, group: group)
    return group
  }

  /// The locked section of `chain`: queues `link`, or makes a group of it to start now.
  private func chainLocked(_ link: ChainLink, group selector: GroupSelector, at site: CallSite) -> (
    Int?, Bool
  ) {
    state.withLock { state -> (Int?, Bool) in
      guard !state.isDetached else { return (nil, false) }
      if let index = state.index(of: selector) {
        state.groups[index].chain.append(link)
        return (state.groups[index].id, false)
      }
      let tag = Self.nextTag()
      let group = Group(id: tag, tag: tag, declaredAt: site)
      group.isBeginningLink = true
      group.hasBeenActive = true
      state.append(group)
      state.lastTag = tag
      return (tag, true)
    }
  }

  /// Installs and starts a chained animation of group `id` whose tracks were just recorded on
  /// `host`, after taking its properties from the other groups.
  func install(
    _ link: ChainLink.Settings, tracks: [AnimationTrack], group id: Int, on host: AnyObject
  ) {
    _ = takeProperties(of: tracks, from: id, on: host, at: nil)
    let now = self.now
    let reducesMotion = ReducedMotion.isEnabled
    let aftermath = changing(.all) {
      installLocked(link, tracks: tracks, group: id, now: now, reducesMotion: reducesMotion)
    }
    finish(aftermath, host: host, at: nil)
  }

  /// The locked section of `install`: makes the chained animation and starts it.
  private func installLocked(
    _ link: ChainLink.Settings, tracks: [AnimationTrack], group id: Int, now: Double,
    reducesMotion: Bool
  ) -> Aftermath {
    state.withLock { state -> Aftermath in
      guard !state.isDetached, let index = state.index(of: .id(id)) else { return Aftermath() }
      state.groups[index].isBeginningLink = false
      // A completion of the animation that just ended, or this link's own block, declared a
      // new animation in this group (addAnimations): it stays, and the queue is dropped.
      guard state.groups[index].engine == nil else {
        var aftermath = Aftermath()
        aftermath.droppedLinks = state.groups[index].chain
        state.groups[index].chain = []
        return aftermath
      }
      var engine = AnimationEngine(tracks: tracks, timing: link.timing, duration: link.duration)
      for completion in link.completions { engine.addCompletion(completion) }
      try? engine.setRepeat(count: link.repeatCount, autoreverses: link.autoreverses)
      engine.pausesOnCompletion = link.pausesOnCompletion
      engine.scrubsLinearly = link.scrubsLinearly
      _ = try? engine.setReversed(link.isReversed, at: now)
      // The switch the chain started with, not the one now.
      let decided = state.groups[index].reducesMotion ?? reducesMotion
      state.groups[index].reducesMotion = decided
      engine.reducesMotion = decided
      let tag = Self.nextTag()
      state.groups[index].tag = tag
      state.lastTag = max(state.lastTag, tag)
      let effects = (try? engine.start(at: now)) ?? AnimationEffects()
      return Self.settle(effects, engine: engine, group: index, state: &state, chaining: true)
    }
  }

  /// Waits until the group `selector` addresses now, and everything chained after it, has
  /// ended; nil at once when the task is cancelled, or when the host's values are released
  /// after it died.
  nonisolated(nonsending) func ended(group selector: GroupSelector) async
    -> AnimatingPosition?
  {
    let group = state.withLock { state in
      state.index(of: selector).map { (state.groups[$0].id, state.groups[$0].waiters) }
    }
    guard let (id, waiters) = group, watchHost() else { return nil }
    // A group no longer there has ended: nil at once.
    // Frames run where the host lives, so a group ends inside the frame that wrote its last
    // values: no write of it is still on its way when the wait returns.
    return await waiters.wait(ifCancelled: nil) {
      state.withLock { $0.index(of: .id(id)) != nil } ? nil : .some(nil)
    }
  }

  /// Puts a watch in the host's storage, released with the host's other values whatever holds
  /// the dancer; false if the host is gone. Synchronous, so that no strong reference to the
  /// host lives on in the frame of a waiting task.
  private func watchHost() -> Bool {
    guard let host = host.object else { return false }
    _ = Associations(of: host).value(for: HostWatchKey.self) { HostWatch(dancer: self) }
    return true
  }

  func read<Value: Sendable>(
    group selector: GroupSelector, _ aspect: ObservedAspects = .schedule,
    _ body: (AnimationEngine?) -> Value
  ) -> Value {
    access(aspect)
    return state.withLock { state in
      body(state.index(of: selector).flatMap { state.groups[$0].engine })
    }
  }

  /// The ids of the groups that have not ended, in the order declared.
  var groupIDs: [Int] {
    access(.schedule)
    return state.withLock { $0.groups.map(\.id) }
  }

  func useClock(_ clock: FrameSource, at site: CallSite) {
    let refused = state.withLock { state -> Bool in
      guard state.clock !== clock else { return false }
      guard state.groups.isEmpty else { return true }
      state.clock = clock
      return false
    }
    if refused {
      report(
        "kept the current frame source: another was asked for while an animation exists", at: site)
    }
  }
}

/// The key of a host's ``HostWatch``.
enum HostWatchKey: AssociatedKey {
  typealias Value = HostWatch?
}

/// Lives in a host's associated storage to tell its dancer that the host died, which ends its
/// groups and resumes their waiters: the storage releases it when it releases the host's
/// values, while the dancer itself may live on in handles that someone still holds.
final class HostWatch: Sendable {
  private let dancer: WeakReference<Dancer>

  init(dancer: Dancer) {
    self.dancer = WeakReference(dancer)
  }

  deinit {
    // Only for the host's death: a watch made twice by two first waits at once is kept once,
    // and the other goes while the host lives.
    guard let dancer = dancer.object, dancer.host.object == nil else { return }
    dancer.hostDied()
  }
}
