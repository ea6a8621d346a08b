import Affix
import AffixScheduling

/// Steps every running animation of one frame source from a single clock subscription.
///
/// A subscription per animation would cost each animation a subscriber call, a weak load and
/// the clock's bookkeeping every frame; the driver instead takes its list of running dancers
/// once a frame and ticks them in order. A clock's entry exists only while at least one
/// animation on it runs, so an idle clock has no subscriber and never wakes up.
///
/// Membership changes (an animation starting, pausing or ending) are rare next to frames, so
/// every clock's entry sits behind one lock, which also makes "first member subscribes, last
/// member unsubscribes" race-free across clocks' entries being created and dropped.
enum DanceDriver {
  /// A host's running animations as the frame loop sees them. The loop reads the host (through
  /// the memo) and the dancer's state directly, holding the state strongly, so that a frame touches neither the dancer nor
  /// a weak reference to it; the dancer itself is reached only when the frame needs more than
  /// new values. The dancer leaves at its deinit, which releases the state at once.
  private struct Member {
    let id: UInt64
    var state: Dancer.StateLock?
    let dancer: WeakReference<Dancer>
    // What a frame reads, as plain words, so that walking the members costs no reference
    // counting: the frame's snapshot of the array keeps `state` alive.
    let stateReference: Unmanaged<Dancer.StateLock>
    /// The host and the tracks this member's frames write through, owned by `memo`.
    let memo: FrameMemo
    let memoReference: Unmanaged<FrameMemo>

    init(id: UInt64, dancer: Dancer) {
      self.id = id
      self.state = dancer.state
      self.dancer = WeakReference(dancer)
      self.stateReference = Unmanaged.passUnretained(dancer.state)
      self.memo = FrameMemo(host: dancer.host)
      self.memoReference = Unmanaged.passUnretained(memo)
    }
  }

  private struct Entry {
    let id: UInt64
    // Held strongly only while the entry exists, so that its identity cannot be reused.
    let clock: FrameSource
    var members: [Member] = []
    /// Where each live member sits in `members`; removed members stay there until the next
    /// frame compacts the array, so a removal costs O(1) and a frame at most one O(n) pass.
    var slots: [UInt64: Int] = [:]
    var hasRemovals = false
    var subscription: CancellationToken?
    var isSubscribing = false
    /// Whether a frame is stepping the members. The schedulers here never run a repeating
    /// action again before its last run returned, so frames of one clock come one after
    /// another; a scheduler of the user's that did would overlap them. A frame that overlaps
    /// another takes every member's full path, so that the members' memos only ever see one
    /// frame.
    var isTicking = false

    mutating func compact() {
      members.removeAll { slots[$0.id] == nil }
      for (index, member) in members.enumerated() { slots[member.id] = index }
      hasRemovals = false
    }
  }

  private struct Registry {
    var entries: [ObjectIdentifier: Entry] = [:]
    var nextID: UInt64 = 0

    mutating func makeID() -> UInt64 {
      nextID += 1
      return nextID
    }
  }

  private static let registry = LockedState(Registry())

  /// Adds `dancer` to the animations `clock` steps each frame, subscribing to the clock if it
  /// is the first; the returned token removes it (cancelled or dropped).
  static func add(_ dancer: Dancer, to clock: FrameSource) -> CancellationToken {
    let key = ObjectIdentifier(clock)
    let (memberID, entryID, subscribe) = registry.withLock {
      registry -> (UInt64, UInt64, Bool) in
      let memberID = registry.makeID()
      // Taken out and put back so that its arrays stay uniquely referenced.
      var entry =
        registry.entries.removeValue(forKey: key) ?? Entry(id: registry.makeID(), clock: clock)
      entry.slots[memberID] = entry.members.count
      entry.members.append(Member(id: memberID, dancer: dancer))
      let subscribe = entry.subscription == nil && !entry.isSubscribing
      if subscribe { entry.isSubscribing = true }
      registry.entries[key] = entry
      return (memberID, entry.id, subscribe)
    }
    if subscribe { self.subscribe(clock, entryID: entryID) }
    return CancellationToken {
      remove(memberID, from: key, entryID: entryID)
    }
  }

  /// The number of animations stepped by `clock` now.
  static func memberCount(of clock: FrameSource) -> Int {
    registry.withLock { $0.entries[ObjectIdentifier(clock)]?.slots.count ?? 0 }
  }

  // The clock's subscribe may call the scheduler, which may be user code: it runs outside the
  // lock, and a subscription that arrives after its entry is gone is cancelled at once.
  private static func subscribe(_ clock: FrameSource, entryID: UInt64) {
    let key = ObjectIdentifier(clock)
    let token = clock.subscribe { frame in
      tick(key, entryID: entryID, now: frame.timestamp.sinceEpoch / .seconds(1))
    }
    let unwanted = registry.withLock { registry -> CancellationToken? in
      guard registry.entries[key]?.id == entryID else { return token }
      registry.entries[key]?.subscription = token
      registry.entries[key]?.isSubscribing = false
      return nil
    }
    unwanted?.cancel()
  }

  private static func remove(_ memberID: UInt64, from key: ObjectIdentifier, entryID: UInt64) {
    let (state, subscription) = registry.withLock {
      registry -> (Dancer.StateLock?, CancellationToken?) in
      guard registry.entries[key]?.id == entryID,
        let slot = registry.entries[key]?.slots.removeValue(forKey: memberID)
      else { return (nil, nil) }
      // Copies the array once a frame at most, when a frame's snapshot still shares it.
      let state = registry.entries[key]?.members[slot].state.take()
      registry.entries[key]?.hasRemovals = true
      guard registry.entries[key]?.slots.isEmpty == true else { return (state, nil) }
      return (state, registry.entries.removeValue(forKey: key)?.subscription)
    }
    // The state (and with it the animation's closures) and the entry's clock are released
    // here, outside the lock.
    withExtendedLifetime(state) {}
    subscription?.cancel()
  }

  private static func tick(_ key: ObjectIdentifier, entryID: UInt64, now: Double) {
    let (members, overlapping) = registry.withLock { registry -> ([Member], Bool) in
      guard registry.entries[key]?.id == entryID else { return ([], false) }
      if registry.entries[key]?.hasRemovals == true { registry.entries[key]?.compact() }
      let overlapping = registry.entries[key]?.isTicking == true
      registry.entries[key]?.isTicking = true
      return (registry.entries[key]?.members ?? [], overlapping)
    }
    var context = FrameContext()
    members.withUnsafeBufferPointer { members in
      for index in members.indices {
        // A member removed since the snapshot was taken has no state; its dancer is done.
        guard members[index].state != nil else { continue }
        var isObserved = false
        if !overlapping,
          members[index].stateReference._withUnsafeGuaranteedRef({ state in
            members[index].memoReference._withUnsafeGuaranteedRef { memo in
              memo.writeCommonFrame(state, to: now, context: &context, isObserved: &isObserved)
            }
          })
        {
          // After the frame's locked section: the progress moved on; what runs did not, or
          // the frame would have taken the full path, which tells Observation itself.
          if isObserved { members[index].dancer.object?.announce(.progress) }
          continue
        }
        members[index].dancer.object?.tick(at: now)
      }
    }
    guard !overlapping else { return }
    registry.withLock { registry in
      if registry.entries[key]?.id == entryID { registry.entries[key]?.isTicking = false }
    }
  }
}

/// The track lists a driver member's frames write through, one per running group of its host,
/// so that a frame takes no reference to them: the member holds the memo, and the frame's
/// snapshot of the members holds the member.
///
/// `@unchecked Sendable`: only the frames of the member's clock touch it, and the driver runs
/// those one at a time (see `Entry.isTicking`).
final class FrameMemo: @unchecked Sendable {
  // What a frame reads and writes first, and the memo's host before it: all on the memo's first
  // cache line.
  private struct Slot {
    var reference: Unmanaged<TrackList>?
    var fraction = 0.0
    var progress = 0.0
    /// A list taken under the dancer's lock, remembered after it: dropping the old one there
    /// could release it, and its values, under the lock.
    var incoming: TrackList?
    /// Owns the list `reference` points to.
    var tracks: TrackList?
  }

  /// The host, read here once a frame: the member's copy would be copied (its pin retained
  /// and released) to be read, the memo's is borrowed.
  private let host: AnyWeakReference
  /// The first group's slot, inline: most hosts run one group, and a frame then follows no
  /// further pointer.
  private var first = Slot()
  // The others in a buffer of their own rather than an array: a frame then checks no
  // uniqueness and copies nothing.
  private var slots = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
  private var capacity = 1
  private var count = 0

  init(host: AnyWeakReference) {
    self.host = host
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  /// The common frame as the clock's driver runs it: reads the host once, moves every running
  /// group of it on within its segment and writes their values into it, through the track
  /// lists this memo keeps. Returns false, having written nothing, when the host is gone or a
  /// group needs the full `tick(at:)`.
  ///
  /// The lock is held only to move the groups on. The values are written after it, through
  /// the memo's references to the tracks: each group's list is compared with the memo's by
  /// address under the lock, and taken (one reference) only when it changed, so that a frame
  /// costs no reference counting for the tracks.
  ///
  /// Sets `isObserved` to whether anything has read the dancer's observable state: a flag the
  /// locked section reads beside the others it reads anyway, so that a frame of a dancer
  /// nobody observes pays no atomic operation for Observation.
  @inline(__always)
  func writeCommonFrame(
    _ state: Dancer.StateLock, to now: Double, context: inout FrameContext,
    isObserved: inout Bool
  ) -> Bool {
    guard let host = host.object else { return false }
    // A host with one group, the common case, takes the shortest way: the step stays in
    // registers and the memo is compared, not written, under the lock.
    let remembered = first.reference?.toOpaque()
    var single: AnimationEngine.CommonFrame?
    var changed: TrackList?
    let written = state.withLock { state -> Int? in
      guard !state.isDetached, context.writesHere(state.isolation) else { return nil }
      isObserved = state.isObserved
      guard !state.hasMoreGroups else { return noteGroups(&state, to: now) }
      // In place: a group holds its engine inline, and a copy would retain every reference in
      // it.
      guard let step = state.groups.withFirstEngine({ $0?.commonFrame(to: now) }) else {
        return nil
      }
      if step.tracks != remembered { changed = state.groups.first.engine?.tracks }
      single = step
      return 1
    }
    guard let written else { return false }
    guard let single else {
      write(written, to: host)
      return true
    }
    if let changed {
      // Outside the lock: the list it replaces may go with it.
      first.reference = Unmanaged.passUnretained(changed)
      first.tracks = changed
    }
    // Remembered before it is written: a frame that writes has a list.
    // swift-format-ignore: NeverForceUnwrap
    first.reference!._withUnsafeGuaranteedRef {
      $0.apply(fraction: single.fraction, progress: single.progress, to: host)
    }
    return true
  }

  /// Notes every running group of a host with several, under its lock; nil when one needs the
  /// full `tick(at:)`.
  @inline(never)
  private func noteGroups(_ state: inout Dancer.State, to now: Double) -> Int? {
    var written = 0
    let first = state.groups.withFirstEngine { engine -> Glide in
      let glide = glide(&engine, to: now)
      if case .step(let step) = glide {
        note(step, at: 0) { engine?.tracks }
        written = 1
      }
      return glide
    }
    if case .full = first { return nil }
    return state.groups.unmanagedRest._withUnsafeGuaranteedRef { rest -> Int? in
      for index in 0..<rest.count {
        let group = rest.pointer(at: index)
        switch glide(&group.pointee.engine, to: now) {
        case .idle: continue
        case .full: return nil
        case .step(let step):
          note(step, at: written) { group.pointee.engine?.tracks }
          written += 1
        }
      }
      return written
    }
  }

  /// Notes, under the dancer's lock, the `slot`th group's step; `tracks` gives the group's
  /// list, taken only when it is not the one remembered.
  @inline(__always)
  private func note(
    _ step: AnimationEngine.CommonFrame, at slot: Int, tracks: () -> TrackList?
  ) {
    guard slot == 0 else { return noteRest(step, at: slot - 1, tracks: tracks) }
    if first.reference?.toOpaque() != step.tracks { first.incoming = tracks() }
    first.fraction = step.fraction
    first.progress = step.progress
  }

  @inline(never)
  private func noteRest(
    _ step: AnimationEngine.CommonFrame, at slot: Int, tracks: () -> TrackList?
  ) {
    if slot == count { grow() }
    if slots[slot].reference?.toOpaque() != step.tracks { slots[slot].incoming = tracks() }
    slots[slot].fraction = step.fraction
    slots[slot].progress = step.progress
  }

  @inline(never)
  private func grow() {
    if count == capacity {
      let larger = UnsafeMutablePointer<Slot>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: slots, count: count)
      slots.deallocate()
      slots = larger
      capacity *= 2
    }
    (slots + count).initialize(to: Slot())
    count += 1
  }

  /// Writes the first `count` noted steps into `host`, outside the lock.
  @inline(__always)
  private func write(_ count: Int, to host: AnyObject) {
    guard count > 0 else { return }
    if first.incoming != nil { rememberFirstIncoming() }
    // Noted before it is written: a slot written has a list.
    // swift-format-ignore: NeverForceUnwrap
    first.reference!._withUnsafeGuaranteedRef {
      $0.apply(fraction: first.fraction, progress: first.progress, to: host)
    }
    if count > 1 { writeRest(count - 1, to: host) }
  }

  /// The writes of the groups after the first, out of line: the common frame of a host with
  /// one group stays small enough for its write to be inlined.
  @inline(never)
  private func writeRest(_ count: Int, to host: AnyObject) {
    for slot in 0..<count {
      if slots[slot].incoming != nil { rememberIncoming(at: slot) }
      // Noted before it is written: a slot written has a list.
      // swift-format-ignore: NeverForceUnwrap
      slots[slot].reference!._withUnsafeGuaranteedRef {
        $0.apply(fraction: slots[slot].fraction, progress: slots[slot].progress, to: host)
      }
    }
  }

  @inline(never)
  private func rememberFirstIncoming() {
    let incoming = first.incoming.take()
    first.reference = incoming.map { Unmanaged.passUnretained($0) }
    first.tracks = incoming
  }

  @inline(never)
  private func rememberIncoming(at slot: Int) {
    let incoming = slots[slot].incoming.take()
    slots[slot].reference = incoming.map { Unmanaged.passUnretained($0) }
    slots[slot].tracks = incoming
  }
}

/// What the common frame does with one group's animation.
private enum Glide {
  /// Not running: nothing to write.
  case idle
  /// Moved on within its segment: these values to write.
  case step(AnimationEngine.CommonFrame)
  /// Needs the full `tick(at:)`.
  case full
}

@inline(__always)
private func glide(_ engine: inout AnimationEngine?, to now: Double) -> Glide {
  // A running animation on its curve has a glide, so the common case asks nothing else.
  guard let step = engine?.commonFrame(to: now) else {
    return engine?.isRunning == true ? .full : .idle
  }
  return .step(step)
}
