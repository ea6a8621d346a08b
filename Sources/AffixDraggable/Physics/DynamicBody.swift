import AffixMotion
import AffixScheduling
public import Foundation

/// A handle on one body of a ``DynamicsWorld``: its position and velocity, and the behaviour
/// that moves it (a ``SpringAttachment``, a ``Snap``, or none).
///
/// Every change wakes the body; it then steps with the world until it comes to rest. The
/// body leaves the world when the handle is released or ``remove()`` is called. Calls on a
/// removed body are reported as diagnostics and change nothing.
///
/// ```swift
/// let body = world.makeBody(at: CGPoint(x: 50, y: 50))
/// body.attach(SpringAttachment(anchor: CGPoint(x: 60, y: 50)))  // grabbed
/// body.moveAnchor(to: CGPoint(x: 90, y: 70))            // dragged
/// body.velocity = CGPoint(x: 400, y: 0)               // released with a fling
/// body.snap(Snap(to: CGPoint(x: 50, y: 50)))           // springs home
/// ```
public final class DynamicBody: Sendable, CustomStringConvertible {
  /// The world the body lives in.
  public let world: DynamicsWorld
  let id: Int

  init(world: DynamicsWorld, id: Int) {
    self.world = world
    self.id = id
  }

  deinit {
    world.forget(id)
  }

  /// The current behaviour of a body.
  public enum Behavior: Sendable, Hashable {
    /// Attached to an anchor, as while dragged.
    case attachment(SpringAttachment)
    /// Snapping to a point.
    case snap(Snap)
  }

  /// The position of the body's centre. Setting it moves the body there at once (a teleport,
  /// keeping its velocity) and wakes it; a non-finite position is reported and ignored, one
  /// beyond ``DynamicsWorld/maximumCoordinate`` is reported and brought within it.
  public var position: CGPoint {
    get { read { $0.position } }
    set {
      guard let newValue = Self.usable(newValue, "body position") else { return }
      update("set the position") { body in
        body.x = Double(newValue.x)
        body.y = Double(newValue.y)
        if body.hasBounds {
          body.x = min(max(body.x, body.minX), body.maxX)
          body.y = min(max(body.y, body.minY), body.maxY)
        }
        return nil
      }
    }
  }

  /// The velocity of the body's centre, in points per second. Setting it (a fling) wakes the
  /// body; a body with no behaviour keeps the velocity until one is added, and the snap or
  /// attachment then starts from it. A non-finite velocity is reported and ignored, one beyond
  /// ``DynamicsWorld/maximumSpeed`` is reported and brought within it.
  public var velocity: CGPoint {
    get { read { CGPoint($0.vx, $0.vy) } }
    set {
      guard newValue.isFinite else {
        diagnose("body velocity \(newValue) is not finite; ignored")
        return
      }
      let given = newValue
      let newValue = given.heldWithinSpeeds ?? given
      if newValue != given {
        diagnose("body velocity \(given) is beyond the speeds a world holds; using \(newValue)")
      }
      update("set the velocity") { body in
        body.vx = Double(newValue.x)
        body.vy = Double(newValue.y)
        return nil
      }
    }
  }

  /// A rectangle the body's centre may not leave, or `nil`. Setting it moves a body outside
  /// into the rectangle; walls stop the body's motion into them. Snap points and anchors
  /// outside the bounds pull the body to the nearest point inside. An unusable rectangle
  /// (null, infinite, non-finite or negative in size) is reported and ignored; the part of one
  /// beyond ``DynamicsWorld/maximumCoordinate`` is reported and cut off.
  public var bounds: CGRect? {
    get {
      read { body in
        body.hasBounds
          ? CGRect(
            x: body.minX, y: body.minY, width: body.maxX - body.minX, height: body.maxY - body.minY)
          : nil
      }
    }
    set {
      if let rect = newValue, !rect.isUsableBounds {
        diagnose("bounds \(rect) are not a finite, non-negative rectangle; ignored")
        return
      }
      var newValue = newValue
      if let rect = newValue?.standardized {
        let bound = DynamicsWorld.maximumCoordinate
        let held = CGRect(x: -bound, y: -bound, width: 2 * bound, height: 2 * bound)
        let corners = (
          held.clamping(rect.origin), held.clamping(CGPoint(x: rect.maxX, y: rect.maxY))
        )
        let cut = CGRect(
          x: corners.0.x, y: corners.0.y, width: corners.1.x - corners.0.x,
          height: corners.1.y - corners.0.y)
        if cut != rect {
          diagnose("bounds \(rect) reach beyond the coordinates a world holds; using \(cut)")
          newValue = cut
        }
      }
      update("set the bounds") { body in
        guard let rect = newValue?.standardized else {
          body.hasBounds = false
          body.updateBand()
          return nil
        }
        body.hasBounds = true
        (body.minX, body.minY) = (Double(rect.minX), Double(rect.minY))
        (body.maxX, body.maxY) = (Double(rect.maxX), Double(rect.maxY))
        body.x = min(max(body.x, body.minX), body.maxX)
        body.y = min(max(body.y, body.minY), body.maxY)
        body.updateBand()
        return nil
      }
    }
  }

  /// The resistance the body meets when an attachment pulls it past its ``bounds``, or `nil`
  /// for walls that stop it dead (the default).
  ///
  /// With a band, an anchor outside the bounds holds the body past the edge by the band's
  /// offset (see ``RubberBand``) rather than on it, and the walls no longer stop the body: a
  /// snap springs it back inside from where it was let go, and may carry it out again as it
  /// overshoots. Without bounds the band does nothing. Unusable values are reported and
  /// replaced (see ``RubberBand/init(coefficient:dimensions:)``).
  ///
  /// ```swift
  /// body.bounds = CGRect(x: 0, y: 0, width: 320, height: 0)  // a horizontal track
  /// body.rubberBand = .standard
  /// ```
  public var rubberBand: RubberBand? {
    get { read { $0.rubberBand } }
    set {
      let band = newValue?.validated()
      update("set the rubber band") { body in
        body.rubberBand = band
        body.updateBand()
        return nil
      }
    }
  }

  /// Where an attachment must hold the centre for the body to show at `point`, the inverse of
  /// the rubber band; `point` itself when nothing stretches it.
  func unbanded(_ point: CGPoint) -> CGPoint {
    read { $0.unbanded(point) }
  }

  /// The behaviour moving the body, if any.
  public var behavior: Behavior? {
    read { body in
      switch body.kind {
      case .free: return nil
      case .snap: return .snap(body.snapBehavior)
      case .attachment: return .attachment(body.attachmentBehavior)
      }
    }
  }

  /// Whether the body is at rest (not stepping).
  public var isResting: Bool { read { !$0.isMoving } }

  /// Whether the body has left its world.
  public var isRemoved: Bool { world.state.withLock { $0.slots[id] == nil } }

  /// Attaches the body to an anchor, replacing its behaviour.
  ///
  /// A non-finite anchor or offset is reported and the call ignored; a negative or
  /// non-finite length is reported and replaced by zero. Coordinates and a length beyond
  /// ``DynamicsWorld/maximumCoordinate`` are reported and brought within it.
  public func attach(_ attachment: SpringAttachment) {
    var attachment = attachment
    guard let anchor = Self.usable(attachment.anchor, "attachment anchor"),
      let offset = Self.usable(attachment.offset, "attachment offset")
    else { return }
    (attachment.anchor, attachment.offset) = (anchor, offset)
    var length = attachment.length
    if !length.isFinite || length < 0 {
      diagnose("attachment length \(length) is not a finite value >= 0; using 0")
      length = 0
    } else if length > DynamicsWorld.maximumCoordinate {
      diagnose(
        "attachment length \(length) is beyond the coordinates a world holds; using "
          + "\(DynamicsWorld.maximumCoordinate)")
      length = DynamicsWorld.maximumCoordinate
    }
    let spring = attachment.spring
    let transition = spring.map { SpringTransition(spring: $0, dt: world.dt) } ?? .identity
    update("attach") { body in
      body.kind = .attachment
      body.isRigid = spring == nil
      body.transition = transition
      body.spring = spring
      (body.targetX, body.targetY) = (Double(attachment.anchor.x), Double(attachment.anchor.y))
      (body.offsetX, body.offsetY) = (Double(attachment.offset.x), Double(attachment.offset.y))
      body.length = length
      return nil
    }
  }

  /// Moves the anchor of the body's attachment, as a finger moving.
  ///
  /// Reported and ignored when the anchor is not finite or the body is not attached; an anchor
  /// beyond ``DynamicsWorld/maximumCoordinate`` is reported and brought within it.
  public func moveAnchor(to anchor: CGPoint) {
    guard let anchor = Self.usable(anchor, "anchor") else { return }
    update("move the anchor") { body in
      guard body.kind == .attachment else {
        return "cannot move the anchor of a body that is not attached; ignored"
      }
      (body.targetX, body.targetY) = (Double(anchor.x), Double(anchor.y))
      return nil
    }
  }

  /// Makes the body snap to a point, replacing its behaviour. The body starts from its current
  /// velocity, so set ``velocity`` first for a fling.
  ///
  /// While `ReducedMotion.isEnabled`, the body is placed on the point at once, at rest from
  /// the next frame, which writes it to the host and announces the rest (see
  /// `onRest(_:)`) as a snap that moved would.
  ///
  /// A non-finite point is reported and the call ignored; one beyond
  /// ``DynamicsWorld/maximumCoordinate`` is reported and brought within it. A point outside
  /// the bounds is reported and the body snaps to the nearest point inside.
  public func snap(_ snap: Snap) {
    var snap = snap
    guard let point = Self.usable(snap.point, "snap point") else { return }
    snap.point = point
    let spring = snap.spring
    let transition = SpringTransition(spring: spring, dt: world.dt)
    let isReduced = ReducedMotion.isEnabled
    var isOutside = false
    update("snap") { body in
      body.kind = .snap
      body.isRigid = false
      body.transition = transition
      body.spring = spring
      (body.targetX, body.targetY) = (Double(snap.point.x), Double(snap.point.y))
      (body.offsetX, body.offsetY, body.length) = (0, 0, 0)
      isOutside =
        body.hasBounds
        && (body.targetX < body.minX || body.targetX > body.maxX || body.targetY < body.minY
          || body.targetY > body.maxY)
      if isReduced {
        (body.x, body.y) = body.target()
        (body.vx, body.vy) = (0, 0)
      }
      return nil
    }
    if isOutside {
      diagnose(
        "snap point \(snap.point) is outside the bounds; snapping to the nearest point inside")
    }
  }

  /// Removes the body's behaviour; it stops where it is and keeps its velocity for the next
  /// behaviour.
  public func removeBehavior() {
    update("remove the behaviour") { body in
      body.kind = .free
      return nil
    }
  }

  /// Waits until the body rests, leaves its world, or the task is cancelled; returns at once if
  /// it rests already. A world without a clock must be advanced by someone else meanwhile.
  public nonisolated(nonsending) func settled() async {
    await world.settled(id)
  }

  /// Takes the body out of its world. Idempotent.
  public func remove() {
    world.removeBodies([id])
  }

  /// The body's position, velocity and whether it rests.
  public var description: String {
    let (position, velocity, resting) = read {
      ($0.position, CGPoint($0.vx, $0.vy), !$0.isMoving)
    }
    return "DynamicBody(at \(position), velocity \(velocity)\(resting ? ", resting" : ""))"
  }

  /// `point`, or nil with a report when it is not finite, or brought within
  /// ``DynamicsWorld/maximumCoordinate`` with a report: the one check of every point a body
  /// is given.
  static func usable(_ point: CGPoint, _ name: String) -> CGPoint? {
    guard point.isFinite else {
      diagnose("\(name) \(point) is not finite; ignored")
      return nil
    }
    guard let held = point.heldWithinCoordinates else { return point }
    diagnose("\(name) \(point) is beyond the coordinates a world holds; using \(held)")
    return held
  }

  /// Reads the body's state, or its last state once it has left the world.
  private func read<T: Sendable>(_ body: (BodyState) -> T) -> T {
    world.state.withLock { state in
      if let index = state.slots[id] { return body(state.bodies[index]) }
      // `retired` keeps every removed body until its handle dies; the fallback is unreachable.
      return body(state.retired[id] ?? BodyState(id: id, x: 0, y: 0, handler: nil))
    }
  }

  /// Applies `change` and wakes the body; `change` returns a problem to report instead of
  /// reporting it, as diagnostics run user code and must not run under the world's lock.
  private func update(_ action: String, _ change: (inout BodyState) -> String?) {
    let outcome = world.state.withLock { state -> Result<[RestObserver], Problem> in
      guard let index = state.slots[id] else {
        return .failure(Problem("cannot \(action): the body has left its world"))
      }
      if let problem = change(&state.bodies[index]) { return .failure(Problem(problem)) }
      state.bodies[index].hasMoved = true
      state.wake(index: index)
      return .success(state.takeAnnouncements(continuing: false))
    }
    switch outcome {
    case .failure(let problem):
      diagnose(problem.message)
    case .success(let announcements):
      world.bodyDidWake()
      world.announce(announcements)
    }
  }

  private struct Problem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}
