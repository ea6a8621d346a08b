import Dispatch
import Synchronization

/// The calls of one callback that have been made and not yet run, in the order of their turns,
/// and who runs them: at most one thread at a time, the one that found them waiting.
///
/// A turn is taken first (an atomic count); the call then arrives with it, perhaps after later
/// ones when two threads race, and waits until every earlier turn has run. The thread that
/// runs calls takes them while the next turn is there, and hands over (stops) at a gap: the
/// missing call's thread finds no runner when it arrives and runs from there.
///
/// Not generic: a call that waits is kept as a job that runs the callback with its argument,
/// so that this code, the whole of a call's bookkeeping, is compiled once for every callback
/// rather than run unspecialized, through the argument type's metadata, at every call.
class OrderedCalls: @unchecked Sendable {
  // `@unchecked Sendable`: `state` is only reached under its lock; a job captures a `Sendable`
  // argument (the callback's constraint) and runs only on the callback's isolation.
  typealias Job = () -> Void

  private struct State {
    /// The turn that runs next.
    var next: UInt64 = 0
    /// Calls that arrived and wait, sorted by turn; nearly always empty.
    var waiting: [Waiting] = []
    /// Whether a thread is running calls.
    var isRunning = false
    /// Whether a run is scheduled on the callback's actor.
    var isScheduled = false
    /// Waits for every turn before the one each names to have run.
    var waits: [(before: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  }

  /// Calls that wait, one job for a run of consecutive turns: a single call, or, past the
  /// bound of a coalescing callback, the last of several whose newest argument it keeps.
  struct Waiting {
    let turn: UInt64
    var lastTurn: UInt64
    var job: Job
  }

  enum Arrival {
    /// Another thread runs the waiting calls, or an earlier turn has not arrived: nothing to do.
    case leave
    /// Nothing waits and this call's turn has come: run it here, now, then the waiting calls.
    case runNow
    /// Run the waiting calls here, now.
    case runHere
    /// Schedule a run on the callback's isolation.
    case schedule
  }

  private let turns = Atomic<UInt64>(0)
  private let state = LockedState(unchecked: State())
  /// The number of waiting calls past which a call that follows the last one replaces it;
  /// `nil` to keep every call.
  private let bound: Int?
  /// The most calls that waited at once.
  private let peak = Atomic<Int>(0)

  init(coalescingPast bound: Int?) {
    self.bound = bound.map { max($0, 1) }
  }

  var backlog: Backlog {
    Backlog(now: state.withLockUnchecked { $0.waiting.count }, peak: peak.load(ordering: .relaxed))
  }

  func issueTurn() -> UInt64 {
    turns.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// Where the call that took `turn` runs. `makeJob` makes what runs it later, and is called
  /// only when the call has to wait: the common call, run at once, allocates nothing.
  ///
  /// Past the bound, a call whose turn follows that of the call waiting before it takes that
  /// call's place: `replaced` receives the job it drops, to release once unlocked (it holds an
  /// argument, whose `deinit` may be anyone's code).
  func arrive(
    turn: UInt64, runsHere: Bool, job makeJob: () -> Job, replaced: inout Job?
  ) -> Arrival {
    state.withLockUnchecked { state in
      if runsHere, !state.isRunning, !state.isScheduled, state.waiting.isEmpty,
        turn == state.next
      {
        state.isRunning = true
        state.next &+= 1
        return .runNow
      }
      var index = state.waiting.endIndex
      while index > state.waiting.startIndex, state.waiting[index - 1].turn > turn { index -= 1 }
      if let bound, state.waiting.count >= bound, index > state.waiting.startIndex,
        state.waiting[index - 1].lastTurn &+ 1 == turn
      {
        replaced = state.waiting[index - 1].job
        state.waiting[index - 1].job = makeJob()
        state.waiting[index - 1].lastTurn = turn
      } else {
        state.waiting.insert(Waiting(turn: turn, lastTurn: turn, job: makeJob()), at: index)
        if state.waiting.count > peak.load(ordering: .relaxed) {
          peak.store(state.waiting.count, ordering: .relaxed)
        }
      }
      guard !state.isRunning, !state.isScheduled, state.waiting.first?.turn == state.next else {
        return .leave
      }
      if runsHere {
        state.isRunning = true
        return .runHere
      }
      state.isScheduled = true
      return .schedule
    }
  }

  /// Takes the right to run for a scheduled run; false when a thread already runs.
  func startScheduled() -> Bool {
    state.withLockUnchecked { state in
      state.isScheduled = false
      guard !state.isRunning else { return false }
      state.isRunning = true
      return true
    }
  }

  /// The next call to run, or nil, giving up the right to run, when its turn has not arrived.
  /// Resumes, after unlocking, the waits that the calls run so far complete.
  func next() -> Job? {
    var done: [CheckedContinuation<Void, Never>] = []
    let job = state.withLockUnchecked { state -> Job? in
      if !state.waits.isEmpty { done = Self.completedWaits(&state) }
      guard !state.waiting.isEmpty, state.waiting[0].turn == state.next else {
        state.isRunning = false
        return nil
      }
      let first = state.waiting.removeFirst()
      state.next = first.lastTurn &+ 1
      return first.job
    }
    for continuation in done { continuation.resume() }
    return job
  }

  /// Returns once every turn taken before the call has run.
  nonisolated(nonsending) func delivered() async {
    let before = turns.load(ordering: .relaxed)
    await withCheckedContinuation { continuation in
      let isDone = state.withLockUnchecked { state in
        guard state.next < before else { return true }
        state.waits.append((before, continuation))
        return false
      }
      if isDone { continuation.resume() }
    }
  }

  /// Takes out the waits whose turns have all run.
  private static func completedWaits(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    var done: [CheckedContinuation<Void, Never>] = []
    let next = state.next
    state.waits.removeAll { wait in
      guard wait.before <= next else { return false }
      done.append(wait.continuation)
      return true
    }
    return done
  }
}
