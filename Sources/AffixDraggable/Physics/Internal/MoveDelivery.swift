import Affix
import Foundation
import Synchronization

/// A body's move handler and the delivery that runs it in its isolation.
///
/// `@unchecked Sendable`: `onMove` is only called by ``run(_:)``, which only its delivery
/// calls, on the isolation the handler was written in.
final class MoveHandler: @unchecked Sendable {
  /// The delivery shared by the world's handlers of the same isolation.
  let delivery: MoveDelivery
  private let onMove: (CGPoint) -> Bool
  /// Whether the host the handler writes is still there, asked where the world advances, so
  /// that a dead host's body leaves the world at the frame that finds it dead even when its
  /// handler runs later on its actor; `nil` when only the handler knows.
  private let isHostAlive: (@Sendable () -> Bool)?
  /// False once `onMove` asked for the body's removal.
  private let kept = Atomic<Bool>(true)

  init(
    delivery: MoveDelivery, isHostAlive: (@Sendable () -> Bool)? = nil,
    onMove: @escaping (CGPoint) -> Bool
  ) {
    self.delivery = delivery
    self.isHostAlive = isHostAlive
    self.onMove = onMove
  }

  /// Whether the handler has not asked for its body's removal.
  var isKept: Bool {
    kept.load(ordering: .relaxed)
  }

  /// Whether the body stays: its handler has not asked for its removal, and its host lives.
  /// For a handler that has not run yet, when the frame only enqueued its move.
  var isKeptAndAlive: Bool {
    isKept && isHostAlive?() != false
  }

  /// Hands `position` to the handler; on the delivery's isolation.
  func run(_ position: CGPoint) {
    if !onMove(position) { kept.store(false, ordering: .relaxed) }
  }
}

/// A moved body's new centre, for its handler.
///
/// A struct, not a tuple: an array of tuples is destroyed through the run time's generic tuple
/// metadata, which a step would pay for every frame.
struct PendingMove: Sendable {
  let id: Int
  let position: CGPoint
  let handler: MoveHandler
}

/// How a world hands a frame's moves to every handler of one isolation: at once, in one pass,
/// when the world advances there and nothing waits; otherwise into a backlog that keeps each
/// body's newest centre, drained on the isolation by one ordered callback.
///
/// A frame costs each isolation one check of where it runs, not one per body. The backlog holds
/// at most one move per body however long the isolation stays busy and however fast the world
/// advances: a handler that runs later is handed where its body is when it runs, not every
/// centre it passed through, as a view only shows the last one anyway.
final class MoveDelivery: Sendable {
  /// Drains the backlog on the isolation.
  private let drains: IsolatedCallback<Void>
  private let backlog: LockedState<Pending>

  struct Pending: Sendable {
    /// Each waiting body's newest move, in the order the bodies first waited.
    var moves: [PendingMove] = []
    /// Where each waiting body's move sits in `moves`.
    var slots: [Int: Int] = [:]
    /// Whether a drain is scheduled or running: until it has found the backlog empty, moves
    /// join the backlog rather than overtake it.
    var isDraining = false
    /// The most moves that waited at once.
    var peak = 0

    mutating func merge(_ batch: [PendingMove]) {
      for move in batch {
        if let slot = slots[move.id] {
          moves[slot] = move
        } else {
          slots[move.id] = moves.count
          moves.append(move)
        }
      }
      peak = max(peak, moves.count)
    }

    /// Takes the right to drain; false when a drain is scheduled or running.
    mutating func startDraining() -> Bool {
      guard !isDraining else { return false }
      isDraining = true
      return true
    }

    mutating func take() -> [PendingMove] {
      slots.removeAll(keepingCapacity: true)
      defer { moves.removeAll(keepingCapacity: true) }
      return moves
    }
  }

  init(isolation: any Actor) {
    let backlog = LockedState(Pending())
    self.backlog = backlog
    drains = IsolatedCallback(on: isolation) { Self.drain(backlog) }
  }

  /// Hands `batch` to its handlers, and returns whether they ran here, before returning.
  func deliver(_ batch: [PendingMove]) -> Bool {
    if drains.runsInline, backlog.withLock({ $0.startDraining() }) {
      // On the isolation with nothing waiting: this thread drains. Moves that a handler's own
      // advance adds meanwhile join the backlog and run after these, here.
      for move in batch { move.handler.run(move.position) }
      Self.drain(backlog)
      return true
    }
    let schedule = backlog.withLock { backlog -> Bool in
      backlog.merge(batch)
      return backlog.startDraining()
    }
    if schedule { drains(()) }
    return false
  }

  /// Runs the backlog's moves on the isolation until it is empty; moves that arrive meanwhile
  /// (a handler that advances its world, another thread's frame) run in the same drain.
  private static func drain(_ backlog: LockedState<Pending>) {
    while true {
      let moves = backlog.withLock { backlog -> [PendingMove] in
        if backlog.moves.isEmpty { backlog.isDraining = false }
        return backlog.take()
      }
      guard !moves.isEmpty else { return }
      for move in moves { move.handler.run(move.position) }
    }
  }

  /// Returns once the moves handed over so far have reached their handlers: what
  /// ``DragController/settled()`` waits for.
  func delivered() async {
    await drains.delivered()
  }

  /// How many moves wait now, and the most that ever waited at once.
  var waiting: Affix.Backlog {
    backlog.withLock { Affix.Backlog(now: $0.moves.count, peak: $0.peak) }
  }
}

/// A world's deliveries, one for each isolation that live handlers run in; a delivery lives
/// as long as a handler holds it, so the list holds no isolation that no body needs.
struct MoveDeliveries: Sendable {
  private struct Entry: Sendable {
    let isolation: ObjectIdentifier
    weak var delivery: MoveDelivery?
  }
  private var entries: [Entry] = []

  /// The delivery for `isolation`, made on first use; forgets those no handler holds.
  mutating func delivery(for isolation: any Actor) -> MoveDelivery {
    let id = ObjectIdentifier(isolation)
    entries.removeAll { $0.delivery == nil }
    // A live delivery retains its actor, so its identifier names no other one.
    if let found = entries.first(where: { $0.isolation == id })?.delivery { return found }
    let made = MoveDelivery(isolation: isolation)
    entries.append(Entry(isolation: id, delivery: made))
    return made
  }
}
