import Affix
import Foundation
import Synchronization

/// A body's move handler and the delivery that runs it in its isolation.
///
/// `@unchecked Sendable`: `onMove` is only called by ``run(_:)``, which only the delivery's
/// callback calls, on the isolation the handler was written in.
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
struct PendingMove: Sendable {
  let id: Int
  let position: CGPoint
  let handler: MoveHandler
}

/// The one ordered callback through which a world hands a frame's moves to every handler of
/// one isolation: a frame costs each isolation one check of where it runs and one turn, not
/// one per body, and the moves of every frame arrive in order.
final class MoveDelivery: Sendable {
  let isolation: any Actor
  let moves: IsolatedCallback<[PendingMove]>

  init(isolation: any Actor) {
    self.isolation = isolation
    moves = IsolatedCallback(unchecked: isolation) { moves in
      for move in moves { move.handler.run(move.position) }
    }
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
