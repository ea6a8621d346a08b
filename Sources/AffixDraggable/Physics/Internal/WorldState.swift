import Affix
import Foundation

/// Everything a world guards with its lock.
struct WorldState {
  var bodies: [BodyState] = []
  /// Body identifier to its index in `bodies`.
  var slots: [Int: Int] = [:]
  /// The last state of bodies removed while their handle lives, so the handle still answers.
  var retired: [Int: BodyState] = [:]
  var nextID = 0
  var movingCount = 0
  /// Time received from frames and not yet stepped; always below one step while bodies move.
  var accumulator = Duration.zero
  var steps = 0
  /// The frame-clock subscription, held only while something moves.
  var subscription: CancellationToken?
  /// Set while a subscription is being made outside the lock, so only one is made.
  var isSubscribing = false
  /// Tasks waiting for a body to come to rest.
  var restWaiters: [RestWaiter] = []
  var nextWaiterID: UInt64 = 0

  /// A task waiting in `DynamicBody.settled()`.
  struct RestWaiter {
    let id: UInt64
    let body: Int
    let continuation: CheckedContinuation<Void, Never>
  }

  /// Whether the body rests, or has left the world.
  func isSettled(_ id: Int) -> Bool {
    guard let index = slots[id] else { return true }
    return !bodies[index].isMoving
  }

  /// The waiters whose bodies have settled, to resume after unlocking.
  mutating func takeSettledWaiters() -> [RestWaiter] {
    guard !restWaiters.isEmpty else { return [] }
    var settled: [RestWaiter] = []
    var waiting: [RestWaiter] = []
    for waiter in restWaiters {
      if isSettled(waiter.body) { settled.append(waiter) } else { waiting.append(waiter) }
    }
    restWaiters = waiting
    return settled
  }

  mutating func insert(_ body: BodyState) {
    slots[body.id] = bodies.count
    bodies.append(body)
    if body.isMoving { movingCount += 1 }
  }

  /// Removes a body and hands it back so that its move handler is released after unlocking.
  mutating func remove(id: Int) -> BodyState? {
    guard let index = slots.removeValue(forKey: id) else { return nil }
    let removed = bodies[index]
    let last = bodies.removeLast()
    if index < bodies.count {
      bodies[index] = last
      slots[last.id] = index
    }
    if removed.isMoving { movingCount -= 1 }
    var final = removed
    final.onMove = nil
    final.isMoving = false
    retired[id] = final
    return removed
  }

  mutating func takeSubscription() -> CancellationToken? {
    defer { subscription = nil }
    return subscription
  }

  mutating func wake(index: Int) {
    if !bodies[index].isMoving {
      bodies[index].isMoving = true
      movingCount += 1
    }
  }

  /// Steps every moving body once.
  mutating func stepAll(dt: Double, threshold: RestThreshold) {
    let (restDistance, restSpeed) = (threshold.distance, threshold.speed)
    var cameToRest = 0
    bodies.withUnsafeMutableBufferPointer { bodies in
      for index in bodies.indices where bodies[index].isMoving {
        if bodies[index].step(dt: dt, restDistance: restDistance, restSpeed: restSpeed) {
          cameToRest += 1
        }
      }
    }
    movingCount -= cameToRest
    steps += 1
  }
}
