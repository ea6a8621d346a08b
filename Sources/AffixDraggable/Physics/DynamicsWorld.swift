import Affix
import AffixMotion
public import AffixScheduling
public import Foundation

/// A small dynamics world: bodies under attachment and snap springs, stepped at a fixed time
/// step whatever the rhythm of the frames that drive it.
///
/// Time arrives through ``advance(by:)`` (normally from a frame source) and is spent in whole
/// steps of ``timeStep``; the remainder waits for the next frame, so the same total time gives
/// the same trajectory however it is cut into frames. Each step moves a body exactly along the
/// closed-form solution of its damped spring (an `AffixScheduling.DampedSpring`). A body that comes to rest
/// stops stepping; a world with nothing moving needs no frames.
///
/// A world given a `FrameSource` subscribes to it when a body starts moving and drops the
/// subscription when every body is at rest, so an idle world costs no wake-ups at all. A world
/// without a clock is advanced by hand, which is what tests, plots and benchmarks do.
///
/// Bodies report their new positions through the handler given to
/// `makeBody(at:bounds:onMove:)`, after each advance, on the thread that advanced the world
/// and outside the world's lock.
///
/// ```swift
/// let world = DynamicsWorld(frames: nil)  // stepped by hand
/// let body = world.makeBody(at: CGPoint(x: 0, y: 0))
/// body.snap(Snap(to: CGPoint(x: 100, y: 0)))
/// world.advance(by: .seconds(3))
/// body.position  // (100, 0), at rest
/// ```
public final class DynamicsWorld: Sendable {
  /// The world that draggable objects use unless told otherwise, driven by
  /// `FrameSource/shared`.
  ///
  /// That source is the main queue's: the display's frames on Apple platforms, 60 a second
  /// elsewhere.
  public static let shared = DynamicsWorld(frames: .shared)

  /// The frame source that drives the world while something moves, or `nil` for a world advanced by
  /// hand.
  public let frames: FrameSource?
  /// The fixed physics time step, within ``timeStepRange``.
  public let timeStep: Duration
  /// When bodies count as at rest, with each figure at least ``minimumRestThreshold``'s.
  public let restThreshold: RestThreshold
  /// The most time one advance simulates; a longer gap (a stalled frame, a suspended app) is
  /// dropped rather than replayed in one burst. At least one ``timeStep``, at most
  /// ``maximumStepsPerAdvance`` of them.
  public let maximumAdvance: Duration

  /// The time steps a world takes: from 250 µs to 100 ms.
  ///
  /// Below, a frame costs more steps than it is worth (an attosecond would be 10^16 steps in a
  /// 60 Hz frame); at the floor, the default quarter-second ``maximumAdvance`` is exactly
  /// ``maximumStepsPerAdvance`` steps. Above, a body moves fewer than ten times a second and
  /// jumps rather than moves (a step of a million seconds would never be taken at all).
  public static let timeStepRange: ClosedRange<Duration> = .microseconds(250)...(.milliseconds(100))

  /// The most physics steps one ``advance(by:)`` takes, whatever the time it is given: the
  /// bound on a frame's work per moving body.
  public static let maximumStepsPerAdvance = 1000

  /// The smallest rest threshold a world uses: a millionth of a point, and of a point a
  /// second. A threshold of 0 would keep a body stepping until its motion underflows (minutes
  /// of frames for a drift no screen shows), and one that is not a number would never let it
  /// rest.
  public static let minimumRestThreshold = RestThreshold(distance: 1e-6, speed: 1e-6)

  /// The largest coordinate, either way, of a position, anchor, snap point or bound, in
  /// points; larger ones are brought to it and reported. Within it, every difference,
  /// square and velocity a step computes is finite (at ±1e308 the centre would become NaN).
  public static let maximumCoordinate = 1e12

  /// The largest speed, either way along each axis, a body is given, in points per second;
  /// larger ones are brought to it and reported.
  public static let maximumSpeed = 1e15

  let dt: Double
  let state = LockedState(WorldState())
  /// The ordered callbacks that hand each frame's moves to each isolation.
  private let deliveries = LockedState(MoveDeliveries())

  /// Creates a world.
  ///
  /// - Parameters:
  ///   - frames: The frame source to advance the world while something moves, or `nil` to
  ///     advance it by hand with ``advance(by:)``.
  ///   - timeStep: The fixed step, 1/120 s by default (two steps per 60 Hz frame). A step that
  ///     is not positive is reported and replaced by the default; one outside
  ///     ``timeStepRange`` is reported and brought to the nearest bound.
  ///   - restThreshold: When bodies count as at rest. A figure that is not finite is reported
  ///     and replaced by ``RestThreshold/standard``'s, one below ``minimumRestThreshold``'s
  ///     is reported and raised to it.
  ///   - maximumAdvance: The most time one advance simulates; a quarter second by default.
  ///     Less than one step is raised to one step; more than ``maximumStepsPerAdvance`` steps
  ///     is reported and lowered to them.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public init(
    frames: FrameSource?, timeStep: Duration = .seconds(1) / 120,
    restThreshold: RestThreshold = .standard,
    maximumAdvance: Duration = .milliseconds(250), fileID: String = #fileID, line: Int = #line
  ) {
    func report(_ message: String) {
      Diagnostics.report(
        subsystem: DragController.subsystem, message: message, fileID: fileID, line: line)
    }
    var step = timeStep
    let range = Self.timeStepRange
    if step <= .zero {
      report("time step \(timeStep) is not positive; using 1/120 s")
      step = .seconds(1) / 120
    } else if !range.contains(step) {
      step = min(max(step, range.lowerBound), range.upperBound)
      report("time step \(timeStep) is outside \(range); using \(step)")
    }
    let steps = Self.maximumStepsPerAdvance
    var advance = max(maximumAdvance, step)
    if advance > step * steps {
      advance = step * steps
      report(
        "maximum advance \(maximumAdvance) is more than \(steps) steps of \(step); using "
          + "\(advance)")
    }
    self.frames = frames
    self.timeStep = step
    self.restThreshold = Self.usable(restThreshold, report: report)
    self.maximumAdvance = advance
    dt = step / .seconds(1)
  }

  /// `threshold` with each figure that is not finite replaced by the standard one, and each
  /// below the minimum raised to it, every change reported.
  private static func usable(
    _ threshold: RestThreshold, report: (String) -> Void
  ) -> RestThreshold {
    func figure(_ value: Double, _ name: String, standard: Double, minimum: Double) -> Double {
      if !value.isFinite {
        report("rest \(name) \(value) is not finite; using \(standard)")
        return standard
      }
      if !(value >= minimum) {
        report("rest \(name) \(value) is below \(minimum); using \(minimum)")
        return minimum
      }
      return value
    }
    let (standard, minimum) = (RestThreshold.standard, minimumRestThreshold)
    // Set after `init`, the public figures skip its checks: read them as given.
    var usable = threshold
    usable.distance = figure(
      threshold.distance, "distance", standard: standard.distance, minimum: minimum.distance)
    usable.speed = figure(
      threshold.speed, "speed", standard: standard.speed, minimum: minimum.speed)
    return usable
  }

  /// Adds a body with its centre at `position`, at rest and with no behaviour.
  ///
  /// The body stays in the world as long as the returned handle lives (or until
  /// ``DynamicBody/remove()``, or until `onMove` returns `false`).
  ///
  /// - Parameters:
  ///   - position: The centre of the body. A non-finite position is reported and replaced
  ///     by the origin.
  ///   - bounds: A rectangle the centre may not leave, or `nil`.
  ///   - isolation: Where `onMove` runs: the caller's isolation unless given.
  ///   - onMove: Receives the body's centre after each advance that moved it, outside the
  ///     world's lock, in the isolation it was written in: written on the main actor, it may
  ///     move a main-actor view, at once when the world's clock ticks on the main queue (as
  ///     ``shared``'s does), else later on the main actor, handed the body's newest centre
  ///     (the moves made while it waited are not replayed). Returning `false` (say, because
  ///     the object it moves has died) removes the body.
  /// - Returns: The handle on the new body.
  public func makeBody(
    at position: CGPoint, bounds: CGRect? = nil, isolation: isolated (any Actor)? = #isolation,
    onMove: @escaping (CGPoint) -> Bool
  ) -> DynamicBody {
    // Outside any actor `onMove` has nowhere to run: the body is made, and tells nobody.
    guard
      let isolation = CallerIsolation.required(
        isolation, by: "makeBody(onMove:)", subsystem: DragController.subsystem)
    else { return makeBody(at: position, bounds: bounds) }
    return makeBody(
      at: position, bounds: bounds,
      handler: MoveHandler(delivery: delivery(for: isolation), onMove: onMove))
  }

  /// Adds a body that nothing is told of when it moves: read its ``DynamicBody/position``, or
  /// observe it, from anywhere.
  ///
  /// ```swift
  /// let body = world.makeBody(at: CGPoint(x: 0, y: 0))
  /// ```
  ///
  /// - Parameters:
  ///   - position: The centre of the body. A non-finite position is reported and replaced
  ///     by the origin.
  ///   - bounds: A rectangle the centre may not leave, or `nil`.
  /// - Returns: The handle on the new body.
  public func makeBody(at position: CGPoint, bounds: CGRect? = nil) -> DynamicBody {
    makeBody(at: position, bounds: bounds, handler: nil)
  }

  /// `makeBody(at:bounds:onMove:)` with its handler made.
  func makeBody(at position: CGPoint, bounds: CGRect?, handler: MoveHandler?)
    -> DynamicBody
  {
    var start = position
    if !start.isFinite {
      diagnose("body position \(position) is not finite; using the origin")
      start = .zero
    } else if let held = start.heldWithinCoordinates {
      diagnose("body position \(position) is beyond the coordinates a world holds; using \(held)")
      start = held
    }
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      state.insert(
        BodyState(id: state.nextID, x: Double(start.x), y: Double(start.y), handler: handler))
      return state.nextID
    }
    let body = DynamicBody(world: self, id: id)
    if let bounds { body.bounds = bounds }
    return body
  }

  /// The number of bodies in the world.
  public var bodyCount: Int { state.withLock { $0.bodies.count } }

  /// The number of bodies that are not at rest.
  public var movingBodyCount: Int { state.withLock { $0.movingCount } }

  /// Whether anything moves, so that the world needs frames.
  public var needsFrames: Bool { movingBodyCount > 0 }

  /// Whether the world holds a subscription to its clock. True only while something moves
  /// (and briefly after the last body came to rest, until the frame that noticed it ends).
  public var isReceivingFrames: Bool { state.withLock { $0.subscription != nil } }

  /// The number of physics steps taken so far.
  package var stepCount: Int { state.withLock { $0.steps } }

  /// Spends `elapsed` on whole physics steps, then tells the bodies that moved where they are.
  ///
  /// Time left over, less than one step, waits for the next call. When nothing moves, the call
  /// does nothing and the leftover is cleared, so motion that starts later starts on a fresh
  /// step. A negative or non-finite duration is reported and ignored.
  ///
  /// - Complexity: O(*steps* × *moving bodies*) plus one handler call per moved body.
  public func advance(by elapsed: Duration) {
    guard elapsed >= .zero else {
      diagnose("cannot advance the world by a negative duration \(elapsed)")
      return
    }
    let (timeStep, maximumAdvance, dt, threshold) = (
      self.timeStep, self.maximumAdvance, self.dt, restThreshold
    )
    typealias Outcome = (
      moved: [PendingMove], idleSubscription: CancellationToken?, settled: [Waiters<Void>],
      announcements: [RestObserver]
    )
    let (moved, idleSubscription, settled, announcements) = state.withLock { state -> Outcome in
      if state.movingCount > 0 {
        state.accumulator += min(elapsed, maximumAdvance)
        // At most `maximumStepsPerAdvance` steps: `maximumAdvance` is at most that many, and the
        // carry is less than one, so the budget only guards the bound.
        var budget = Self.maximumStepsPerAdvance
        while state.accumulator >= timeStep && state.movingCount > 0 && budget > 0 {
          state.accumulator -= timeStep
          state.stepAll(dt: dt, threshold: threshold)
          budget -= 1
        }
        if state.accumulator >= timeStep { state.accumulator = .zero }
      }
      let settled = state.takeSettledWaiters()
      let announcements = state.takeAnnouncements(continuing: false)
      guard state.movingCount == 0 else {
        return (state.collectMoved(), nil as CancellationToken?, settled, announcements)
      }
      state.accumulator = .zero
      // Everything rests: stop the frames (cancelled outside the lock).
      return (state.collectMoved(), state.takeSubscription(), settled, announcements)
    }
    idleSubscription?.cancel()
    let abandoned = deliver(moved)
    if !abandoned.isEmpty { removeBodies(abandoned) }
    // After the last positions were handed over: a handler or a waiter sees the body where it
    // rests.
    announce(announcements)
    for waiters in settled { waiters.resumeAll(returning: ()) }
  }

  /// Hands each isolation its moves in one call, and returns the bodies to remove: those whose
  /// handler asked for it (at once when it ran here, else at the body's next move) and those
  /// whose host has died.
  private func deliver(_ moved: [PendingMove]) -> [Int] {
    // Nearly always one isolation, every handler kept: the frame's moves go as they are,
    // without a copy (each copy of a move retains and releases its handler).
    if let first = moved.first?.handler.delivery,
      moved.allSatisfy({ $0.handler.delivery === first && $0.handler.isKept })
    {
      return Self.hand(moved, to: first)
    }
    var abandoned: [Int] = []
    // Otherwise one batch an isolation; a linear search finds the few there are.
    var batches: [(delivery: MoveDelivery, moves: [PendingMove])] = []
    for move in moved {
      guard move.handler.isKept else {
        abandoned.append(move.id)
        continue
      }
      if let index = batches.firstIndex(where: { $0.delivery === move.handler.delivery }) {
        batches[index].moves.append(move)
      } else {
        batches.append((move.handler.delivery, [move]))
      }
    }
    for batch in batches { abandoned += Self.hand(batch.moves, to: batch.delivery) }
    return abandoned
  }

  /// Hands `moves` to `delivery`, and returns the bodies that leave: a handler that ran here
  /// told whether its host lives; one whose move only joined the backlog is asked here.
  /// (`compactMap`, not a `for` loop that appends: the loop made a main-actor body's step a
  /// third slower in `affix-bench draggable`.)
  private static func hand(_ moves: [PendingMove], to delivery: MoveDelivery) -> [Int] {
    let ranHere = delivery.deliver(moves)
    return moves.compactMap { move in
      (ranHere ? move.handler.isKept : move.handler.isKeptAndAlive) ? nil : move.id
    }
  }

  /// The moves waiting for the isolations their handlers run in, now and at most at once:
  /// never more than one a body, however busy those isolations are.
  package var movesBacklog: Backlog {
    let deliveries = state.withLock { state in
      state.bodies.compactMap { $0.handler?.delivery }
    }
    var seen: [ObjectIdentifier] = []
    var total = Backlog(now: 0, peak: 0)
    for delivery in deliveries where !seen.contains(ObjectIdentifier(delivery)) {
      seen.append(ObjectIdentifier(delivery))
      let waiting = delivery.waiting
      total = Backlog(now: total.now + waiting.now, peak: total.peak + waiting.peak)
    }
    return total
  }

  /// The delivery shared by the handlers that run in `isolation`.
  func delivery(for isolation: any Actor) -> MoveDelivery {
    deliveries.withLock { $0.delivery(for: isolation) }
  }

  /// Delivers `first`, taken with `takeAnnouncements(continuing: false)`, and whatever is
  /// announced meanwhile, outside the lock, until nothing is left.
  ///
  /// One thread delivers at a time: another that announces meanwhile leaves its announcements
  /// to it, so handlers hear the changes in the order they happened, and a handler that wakes
  /// its body hears of it after it returns.
  func announce(_ first: [RestObserver]) {
    var batch = first
    while !batch.isEmpty {
      for announcement in batch { announcement.handler(()) }
      batch = state.withLock { $0.takeAnnouncements(continuing: true) }
    }
  }

  /// Waits until the body `id` rests or leaves the world, or the task is cancelled.
  func settled(_ id: Int) async {
    guard let waiters = state.withLock({ $0.restWaiters(of: id) }) else { return }
    await waiters.wait(ifCancelled: ()) { state.withLock { $0.isSettled(id) } ? () : nil }
  }

  func removeBodies(_ ids: [Int], forever: Bool = false) {
    let (removed, idleSubscription, settled) = state.withLock { state in
      let removed = ids.compactMap { id in
        defer { if forever { state.retired[id] = nil } }
        return state.remove(id: id)
      }
      return (
        removed, state.movingCount == 0 ? state.takeSubscription() : nil,
        state.takeSettledWaiters()
      )
    }
    // The bodies (and their move handlers) and the subscription are released here, outside
    // the lock.
    idleSubscription?.cancel()
    withExtendedLifetime(removed) {}
    for waiters in settled { waiters.resumeAll(returning: ()) }
  }

  /// Removes a body for good, when its handle dies.
  func forget(_ id: Int) {
    removeBodies([id], forever: true)
  }

  /// Called after a body woke up, outside the lock: subscribes to the clock if the world is
  /// not receiving frames yet.
  func bodyDidWake() {
    guard let clock = frames else { return }
    let shouldSubscribe = state.withLock { state in
      guard state.movingCount > 0, state.subscription == nil, !state.isSubscribing else {
        return false
      }
      state.isSubscribing = true
      return true
    }
    guard shouldSubscribe else { return }
    // Subscribing runs the clock's code, so it happens outside the lock; a frame may even
    // arrive before the token is stored, and may find everything at rest already.
    let subscription = clock.subscribe { [weak self] frame in
      self?.advance(by: frame.delta)
    }
    let unwanted = state.withLock { state -> CancellationToken? in
      state.isSubscribing = false
      guard state.movingCount > 0 else { return subscription }
      state.subscription = subscription
      return nil
    }
    unwanted?.cancel()
  }
}

extension WorldState {
  /// The bodies whose position changed since the last report, with their handlers.
  mutating func collectMoved() -> [PendingMove] {
    var moved: [PendingMove] = []
    moved.reserveCapacity(movingCount)
    // Through the buffer, so that reading a body's fields copies nothing else of it (a copy of
    // the whole state would retain and release its handler).
    bodies.withUnsafeMutableBufferPointer { bodies in
      guard let first = bodies.baseAddress else { return }
      for body in first..<first + bodies.count where body.pointee.hasMoved {
        body.pointee.hasMoved = false
        if let handler = body.pointee.handler {
          moved.append(
            PendingMove(id: body.pointee.id, position: body.pointee.position, handler: handler))
        }
      }
    }
    return moved
  }
}
