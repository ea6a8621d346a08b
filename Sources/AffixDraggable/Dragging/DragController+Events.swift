import Affix
import AffixMotion
import AffixScheduling
import Foundation

/// The gesture's events: a drag begun, moved and ended, and the release that follows.
extension DragController {
  /// Drags the object by one event of a pan gesture (see ``DragEvent``), as the host's
  /// `Draggable.drag(_:)` does for a conforming type.
  ///
  /// Events out of order (a change or an end with no drag in progress), non-finite locations
  /// and events for an object that has died are reported as diagnostics. A second `began`
  /// restarts the drag at the new location; an `ended` with a non-finite velocity ends the
  /// drag without a fling.
  ///
  /// - Parameters:
  ///   - event: The gesture's event.
  ///   - isolation: Where the events come from; the caller's isolation unless given. It must be
  ///     the object's (where the controller was attached), since an event reads the object's
  ///     centre: events from elsewhere are reported and ignored. A release handler written
  ///     there runs before this returns.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public func drag(
    _ event: DragEvent, isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID,
    line: Int = #line
  ) {
    // The events read the object's centre: only where the object lives.
    guard isolation === hostIsolation else {
      Diagnostics.report(
        subsystem: Self.subsystem,
        message: "\(event): ignored: the \(hostName) lives on \(type(of: hostIsolation)), but "
          + "its events come from \(type(of: isolation)); feed them where it lives",
        fileID: fileID, line: line)
      return
    }
    let site = ReportSite(fileID: fileID, line: line)
    guard !body.isRemoved else {
      diagnose("\(event): the drag was removed; ignored", at: site)
      return
    }
    guard let centre = readCenter() else {
      diagnose("\(event): the \(hostName) has died; removing its body", at: site)
      changing(\.isDragging) { state.withLock { $0.isDragging = false } }
      body.remove()
      return
    }
    switch event {
    case .began(let location):
      begin(at: location, centre: centre, site: site)
    case .changed(let location):
      guard isFinite(location, in: event, site: site), isDraggingOrReport(event, site: site)
      else { return }
      body.moveAnchor(to: location)
    case .ended(var velocity):
      guard let ending = endDrag(event, site: site) else { return }
      if !velocity.isFinite {
        diagnose(
          "\(event): the release velocity is not finite; snapping back without a fling", at: site)
        velocity = .zero
      } else if let held = Self.held(velocity, within: DynamicsWorld.maximumSpeed) {
        diagnose(
          "\(event): the release velocity is beyond \(DynamicsWorld.maximumSpeed) pt/s; "
            + "flinging at \(held)", at: site)
        velocity = held
      }
      release(velocity, ending, from: isolation, site: site)
    case .cancelled, .failed:
      guard let ending = endDrag(event, site: site) else { return }
      snap(to: .point(ending.previous), velocity: .zero, drag: ending.drag)
    }
  }

  func begin(at location: CGPoint, centre: CGPoint, site: ReportSite) {
    let event = DragEvent.began(at: location)
    guard isFinite(location, in: event, site: site) else { return }
    let (wasDragging, spring) = changing(\.isDragging) {
      state.withLock { state in
        defer {
          state.isDragging = true
          state.drags += 1
        }
        return (state.isDragging, state.attachment)
      }
    }
    if wasDragging {
      diagnose("\(event) while a drag is in progress; restarting the drag there", at: site)
    }
    // The object is authoritative: other code may have moved it since the last frame. Set
    // only when it did, as setting pulls a body stretched past its bounds back inside.
    if body.position != centre { body.position = centre }
    // Grabbed while stretched past its bounds, the body stays where it shows: the finger
    // holds it where the band shows it there.
    let held = body.unbanded(body.position)
    body.attach(
      SpringAttachment(offset: CGPoint(location - held), anchor: location, spring: spring))
  }

  /// Lets go with a fling: projects it, asks the handler if there is one, and acts on the
  /// state as the handler left it (see ``onRelease(isolation:_:)``).
  func release(
    _ velocity: CGPoint, _ ending: Ending, from caller: isolated (any Actor)?, site: ReportSite
  ) {
    let position = body.position
    var projected = position + Vector2D(ending.rate.projection(of: velocity))
    if let held = Self.held(projected, within: DynamicsWorld.maximumCoordinate) {
      // A fling at a rate a hair below 1 glides past what the world holds: its nearest snap
      // point is chosen from where the world's edge is, which every distance reaches finitely.
      diagnose(
        "a fling of \(velocity) at \(ending.rate) projects beyond the world's "
          + "\(DynamicsWorld.maximumCoordinate); projecting to \(held)", at: site)
      projected = held
    }
    let release = DragRelease(
      position: position, velocity: velocity, projectedPosition: projected,
      nearestSnapPoint: Self.nearest(to: projected, in: ending.snapPoints),
      previousSnapPoint: ending.previous)
    changing(\.lastRelease) { state.withLock { $0.lastRelease = release } }
    guard let handler = ending.handler else {
      return snap(to: .nearest(projected), velocity: velocity, drag: ending.drag)
    }
    if let decision = handler.decide(release, from: caller) {
      return act(on: decision, release, drag: ending.drag, site: site)
    }
    // Held where it was let go until the handler has decided on its actor.
    body.removeBehavior()
    handler.later(release) { [self] decision in
      act(on: decision, release, drag: ending.drag, site: site)
    }
  }

  /// Acts on a release handler's decision, read against the controller's state as the handler
  /// left it: a drag begun, snap points set or the controller replaced meanwhile win.
  func act(
    on decision: DragRelease.Decision, _ release: DragRelease, drag: Int, site: ReportSite
  ) {
    // Made draggable anew, or detached, while the handler ran: its body has left the world and
    // the new controller, if any, owns the object.
    guard !body.isRemoved else {
      diagnose(
        "release decision \(decision): the drag was removed or replaced while its release "
          + "handler ran; the decision is dropped", at: site)
      return
    }
    switch decision {
    case .snapToNearest:
      snap(to: .nearest(release.projectedPosition), velocity: release.velocity, drag: drag)
    case .snap(let point):
      guard point.isFinite else {
        diagnose(
          ".snap(to: \(point)): the point is not finite; snapping to the nearest snap point",
          at: site)
        return snap(
          to: .nearest(release.projectedPosition), velocity: release.velocity, drag: drag)
      }
      snap(
        to: .point(Self.reachable(point, in: body.bounds, at: site)), velocity: release.velocity,
        drag: drag)
    case .snapBack:
      snap(to: .current, velocity: release.velocity, drag: drag)
    case .handOff:
      guard isCurrent(drag) else { return }
      body.removeBehavior()
    }
  }

  /// Where a release sends the object, read when it acts, under the lock.
  enum Target {
    /// This point.
    case point(CGPoint)
    /// The snap point nearest this one, of the snap points as they are.
    case nearest(CGPoint)
    /// The snap point as it is: the previous one, unless snap points were set meanwhile.
    case current
  }

  /// Snaps to `target` from `velocity`, unless drag `drag` is over (a later drag began).
  func snap(to target: Target, velocity: CGPoint, drag: Int) {
    let snap = changing(\.snapPoint) {
      state.withLock { state -> Snap? in
        guard state.drags == drag, !state.isDragging else { return nil }
        switch target {
        case .point(let point): state.snapPoint = point
        case .nearest(let point): state.snapPoint = Self.nearest(to: point, in: state.snapPoints)
        case .current: break
        }
        return Snap(to: state.snapPoint, spring: state.snap)
      }
    }
    guard let snap else { return }
    body.velocity = velocity
    body.snap(snap)
  }

  func isCurrent(_ drag: Int) -> Bool {
    state.withLock { $0.drags == drag && !$0.isDragging }
  }

  /// Ends the drag; returns what the release needs, or `nil` (reported) with no drag in
  /// progress.
  func endDrag(_ event: DragEvent, site: ReportSite) -> Ending? {
    let ending = changing(\.isDragging) {
      state.withLock { state -> Ending? in
        guard state.isDragging else { return nil }
        state.isDragging = false
        return Ending(
          snapPoints: state.snapPoints, previous: state.snapPoint, snap: state.snap,
          rate: state.decelerationRate, handler: state.releaseHandler, drag: state.drags)
      }
    }
    if ending == nil { diagnose("\(event) with no drag in progress; ignored", at: site) }
    return ending
  }

  func isDraggingOrReport(_ event: DragEvent, site: ReportSite) -> Bool {
    // Not through `isDragging`, whose read would make every later change tell Observation.
    guard state.withLock({ $0.isDragging }) else {
      diagnose("\(event) with no drag in progress; ignored", at: site)
      return false
    }
    return true
  }

  func isFinite(_ location: CGPoint, in event: DragEvent, site: ReportSite) -> Bool {
    guard location.isFinite else {
      diagnose("\(event): the location is not finite; ignored", at: site)
      return false
    }
    return true
  }
}
