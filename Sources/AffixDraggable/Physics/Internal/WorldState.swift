import Affix
import AffixScheduling
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
  /// Tasks waiting for a body to come to rest, by body. A body's list stays while the body is
  /// in the world, so that a waiter that found it never waits on a list no one resumes.
  var restWaiters: [Int: Waiters<Void>] = [:]
  /// Handlers told when a body comes to rest or leaves it.
  var restObservers: [RestObserver] = []
  /// How many observers each observed body has, so that a step asks only when one rests.
  var observedBodies: [Int: Int] = [:]
  /// Announcements made and not yet delivered, in the order the changes happened.
  var pendingAnnouncements: [RestObserver] = []
  /// Set while one thread delivers announcements, so that they go out one at a time, in order.
  var isAnnouncing = false
  var nextObserverID: UInt64 = 0

  /// Whether the body rests, or has left the world.
  func isSettled(_ id: Int) -> Bool {
    guard let index = slots[id] else { return true }
    return !bodies[index].isMoving
  }

  /// The waiter lists of the bodies that rest or have left the world, to resume after
  /// unlocking; a body that has left takes its list with it.
  mutating func takeSettledWaiters() -> [Waiters<Void>] {
    guard !restWaiters.isEmpty else { return [] }
    var settled: [Waiters<Void>] = []
    for (id, waiters) in restWaiters where isSettled(id) {
      settled.append(waiters)
      if slots[id] == nil { restWaiters[id] = nil }
    }
    return settled
  }

  /// The waiter list of body `id`, made if needed; nil when the body rests or has left.
  mutating func restWaiters(of id: Int) -> Waiters<Void>? {
    guard !isSettled(id) else { return nil }
    if let waiters = restWaiters[id] { return waiters }
    let waiters = Waiters<Void>()
    restWaiters[id] = waiters
    return waiters
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
    if observedBodies.removeValue(forKey: id) != nil {
      restObservers.removeAll { $0.body == id }
    }
    var final = removed
    final.handler = nil
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
      if !observedBodies.isEmpty { announce(.wake, of: bodies[index].id) }
    }
  }

  /// Steps every moving body once.
  mutating func stepAll(dt: Double, threshold: RestThreshold) {
    let (restDistance, restSpeed) = (threshold.distance, threshold.speed)
    var cameToRest = 0
    var rested: [Int] = []
    let isObserved = !observedBodies.isEmpty
    bodies.withUnsafeMutableBufferPointer { bodies in
      for index in bodies.indices where bodies[index].isMoving {
        if bodies[index].step(dt: dt, restDistance: restDistance, restSpeed: restSpeed) {
          cameToRest += 1
          if isObserved { rested.append(bodies[index].id) }
        }
      }
    }
    for id in rested { announce(.rest, of: id) }
    movingCount -= cameToRest
    steps += 1
  }
}

/// A handler told when one body comes to rest, or when it leaves rest.
struct RestObserver {
  enum Change {
    case rest
    case wake
  }

  let id: UInt64
  let body: Int
  let change: Change
  let handler: IsolatedCallback<Void>
}

extension WorldState {
  mutating func addRestObserver(
    body: Int, change: RestObserver.Change, handler: IsolatedCallback<Void>
  ) -> UInt64? {
    guard slots[body] != nil else { return nil }
    defer { nextObserverID += 1 }
    restObservers.append(
      RestObserver(id: nextObserverID, body: body, change: change, handler: handler))
    observedBodies[body, default: 0] += 1
    return nextObserverID
  }

  /// Removes an observer; returns it so that its handler is released after unlocking.
  mutating func removeRestObserver(_ id: UInt64) -> RestObserver? {
    guard let index = restObservers.firstIndex(where: { $0.id == id }) else { return nil }
    let observer = restObservers.remove(at: index)
    if let count = observedBodies[observer.body] {
      observedBodies[observer.body] = count > 1 ? count - 1 : nil
    }
    return observer
  }

  /// Queues the announcement of `change` of body `id` to its observers.
  mutating func announce(_ change: RestObserver.Change, of id: Int) {
    guard observedBodies[id] != nil else { return }
    for observer in restObservers where observer.body == id && observer.change == change {
      pendingAnnouncements.append(observer)
    }
  }

  /// The announcements to deliver now, if no other thread is delivering; those whose observer
  /// was cancelled since are dropped. Ends the delivery when there are none.
  mutating func takeAnnouncements(continuing: Bool) -> [RestObserver] {
    guard continuing || !isAnnouncing else { return [] }
    let pending = pendingAnnouncements.filter { announcement in
      restObservers.contains { $0.id == announcement.id }
    }
    pendingAnnouncements = []
    isAnnouncing = !pending.isEmpty
    return pending
  }
}
