/// The moments of one host: which are reached, the work recorded for each, in order, and the
/// work due to run now. Kept as an associated value of the host, so it goes with the host's
/// values, and the work with it, unrun.
final class MomentBook: Sendable {
  /// A piece of recorded work, as the book orders it; its closure lives in its lane.
  struct Entry: Sendable {
    let id: UInt64
    let moment: ObjectIdentifier
    let repetition: MomentRepetition
    let lane: Lane
  }

  private struct State {
    var reached: Set<ObjectIdentifier> = []
    /// The work waiting for its moment, in the order recorded.
    var entries: [Entry] = []
    /// The work due now, in order: drained by one thread at a time, outside the lock.
    var due: [Entry] = []
    var isDraining = false
    var lastID: UInt64 = 0
    /// One lane per isolation that recorded work, by the actor's identity.
    var lanes: [ObjectIdentifier: Lane] = [:]
    var nonisolatedLane: Lane?
  }

  private let state = LockedState(State())

  /// The lane of nonisolated work, made if there is none.
  func nonisolatedLane() -> Lane {
    if let lane = state.withLock({ $0.nonisolatedLane }) { return lane }
    let made = Lane()
    return state.withLock { state in
      if let lane = state.nonisolatedLane { return lane }
      state.nonisolatedLane = made
      return made
    }
  }

  /// The lane of `isolation`, made there if it has none: the caller is in `isolation`, which
  /// is an actor's.
  func lane(for isolation: isolated (any Actor)?, key: ObjectIdentifier) -> Lane {
    if let lane = state.withLock({ $0.lanes[key] }) { return lane }
    let made = Lane(isolation: isolation)
    return state.withLock { state in
      if let lane = state.lanes[key] { return lane }
      state.lanes[key] = made
      return made
    }
  }

  /// Records `id`'s entry; returns whether its moment is reached, so that it is due now, and
  /// whether the caller must drain.
  func record(
    _ moment: ObjectIdentifier, _ repetition: MomentRepetition, in lane: Lane, id: UInt64
  ) -> Bool {
    state.withLock { state in
      let entry = Entry(id: id, moment: moment, repetition: repetition, lane: lane)
      let isReached = state.reached.contains(moment)
      if !isReached || repetition == .everyTime { state.entries.append(entry) }
      guard isReached else { return false }
      state.due.append(entry)
      return Self.startDraining(&state)
    }
  }

  /// A new work's number, unique in this book.
  func nextID() -> UInt64 {
    state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
  }

  /// Marks `moment` reached and makes its work due; `nil` when it was reached already, else
  /// how many works are due and whether the caller must drain.
  func reach(_ moment: ObjectIdentifier) -> (due: Int, drains: Bool)? {
    state.withLock { state in
      guard state.reached.insert(moment).inserted else { return nil }
      let due = state.entries.filter { $0.moment == moment }
      state.entries.removeAll { $0.moment == moment && $0.repetition == .once }
      state.due += due
      return (due.count, due.isEmpty ? false : Self.startDraining(&state))
    }
  }

  /// Marks `moment` left; `false` when it was not reached.
  func leave(_ moment: ObjectIdentifier) -> Bool {
    state.withLock { $0.reached.remove(moment) != nil }
  }

  func isReached(_ moment: ObjectIdentifier) -> Bool {
    state.withLock { $0.reached.contains(moment) }
  }

  func pendingCount(_ moment: ObjectIdentifier) -> Int {
    state.withLock { state in
      state.entries.count { $0.moment == moment }
        + state.due.count { $0.moment == moment && $0.repetition == .once }
    }
  }

  /// Forgets `id`'s work, waiting or due; returns its lane when it was still there, whose
  /// closure the caller drops on the lane's isolation.
  func cancel(_ id: UInt64) -> Lane? {
    state.withLock { state in
      let waiting = state.entries.firstIndex { $0.id == id }.map { state.entries.remove(at: $0) }
      let due = state.due.firstIndex { $0.id == id }.map { state.due.remove(at: $0) }
      return (waiting ?? due)?.lane
    }
  }

  /// Hands each due work to its lane, in order, until none is due: outside the lock, one
  /// thread at a time. Work made due meanwhile (recorded by a work, or by another thread, or
  /// by a reach inside a work) joins the end of the line.
  func drain() {
    while let entry = state.withLock({ state -> Entry? in
      guard !state.due.isEmpty else {
        state.isDraining = false
        return nil
      }
      return state.due.removeFirst()
    }) {
      entry.lane.run(entry.id, keeping: entry.repetition == .everyTime)
    }
  }

  private static func startDraining(_ state: inout State) -> Bool {
    guard !state.isDraining else { return false }
    state.isDraining = true
    return true
  }
}

/// The work one isolation recorded on a host, and the one callback that runs it there, in the
/// order it is handed over. The closures live in that isolation, and are released there; the
/// lane of nonisolated work keeps `@Sendable` closures, run on the thread that reaches.
final class Lane: Sendable {
  /// A closure to run, or to drop.
  struct Call: Sendable {
    let id: UInt64
    let action: Action
  }

  /// Run and kept (work that runs at every reach), run and dropped, or only dropped.
  enum Action: Sendable { case runAndKeep, runOnce, drop }

  private let isolatedWorks: IsolationBound<Works>?
  private let sendableWorks = LockedState<[UInt64: @Sendable () -> Void]>([:])
  private let calls: IsolatedCallback<Call>

  /// The lane of the caller's isolation, made there.
  init(isolation: isolated (any Actor)?) {
    let works = Works()
    isolatedWorks = IsolationBound(works)
    calls = IsolatedCallback { call in
      let work: (() -> Void)?
      switch call.action {
      case .runAndKeep: work = works.closures[call.id]
      case .runOnce, .drop: work = works.closures.removeValue(forKey: call.id)
      }
      if call.action != .drop { work?() }
    }
  }

  /// The lane of nonisolated work.
  init() {
    isolatedWorks = nil
    let works = sendableWorks
    calls = IsolatedCallback(nonisolated: { call in
      let work = works.withLock { closures -> (@Sendable () -> Void)? in
        call.action == .runAndKeep ? closures[call.id] : closures.removeValue(forKey: call.id)
      }
      // Outside the lock: the work may record more.
      if call.action != .drop { work?() }
    })
  }

  /// Keeps `work` under `id`; the caller is in the lane's isolation.
  func keep(_ work: @escaping () -> Void, as id: UInt64, isolation: isolated (any Actor)?) {
    _ = isolatedWorks?.withValue { $0.closures[id] = work }
  }

  /// Keeps the nonisolated `work` under `id`.
  func keep(sendable work: @escaping @Sendable () -> Void, as id: UInt64) {
    sendableWorks.withLock { $0[id] = work }
  }

  func run(_ id: UInt64, keeping: Bool) {
    calls(Call(id: id, action: keeping ? .runAndKeep : .runOnce))
  }

  func drop(_ id: UInt64) {
    calls(Call(id: id, action: .drop))
  }

  /// The lane's closures, touched only in its isolation.
  private final class Works {
    var closures: [UInt64: () -> Void] = [:]
  }
}
