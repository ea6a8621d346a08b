public import Affix
public import AffixMotion
import AffixScheduling
public import Foundation
public import Observation

/// The drag state of one object: its body in a ``DynamicsWorld``, where it snaps back to,
/// and whether a finger holds it. Attached to the object as a `Capability`.
///
/// The seed's pan handler, in event form: `began` attaches the object to the finger at the
/// point it was touched, `changed` moves the anchor, and `ended` (with the release velocity),
/// `cancelled` or `failed` let go and snap back.
///
/// The controller holds the object only weakly: when it dies its body leaves the world at the
/// next frame, and nothing steps for it any more.
///
/// ```swift
/// final class Marker { var centre = CGPoint(x: 40, y: 40) }  // not `Draggable`
///
/// let marker = Marker()
/// let drag = DragController.attach(to: marker, center: \.centre)
/// drag.drag(.began(at: CGPoint(x: 45, y: 42)))
/// ```
///
/// Observation: the controller is `Observable`. ``isDragging``, ``isResting``, ``snapPoint``,
/// ``snapPoints``, ``snap``, ``decelerationRate`` and ``lastRelease`` take part in
/// `withObservationTracking(_:onChange:)` and `Observations`, each on its own, for this
/// controller alone. `onChange` runs on the thread making the change: the one handling the
/// drag event or setting the property, and, for ``isResting``, the world clock's context as a
/// body comes to rest (told after the frame that placed it) or the caller's as it wakes. Until
/// anything reads, a change pays one atomic load for it, and a frame nothing.
public final class DragController: Capability, CustomStringConvertible, Observable {
  static let subsystem = "drag"

  private struct State {
    var isDragging = false
    var snapPoints: [CGPoint]
    /// The snap point the object rests at or heads for.
    var snapPoint: CGPoint
    var snap: DampedSpring
    var attachment: DampedSpring?
    var decelerationRate = DecelerationRate.normal
    var releaseHandler: ReleaseHandler?
    var lastRelease: DragRelease?
    /// Drags begun so far, so that a decision that arrives after the next drag began is
    /// dropped.
    var drags = 0
  }

  /// What a drag that ends hands to ``DragController/release(_:_:from:)``.
  private struct Ending {
    var snapPoints: [CGPoint]
    var previous: CGPoint
    var snap: DampedSpring
    var rate: DecelerationRate
    var handler: ReleaseHandler?
    var drag: Int
  }

  /// The body that moves the object.
  public let body: DynamicBody
  private let state: LockedState<State>
  /// Reads the object's centre; `nil` once the object has died.
  private let readCenter: @Sendable () -> CGPoint?
  /// Where the object lives: the only isolation whose events may read its centre.
  private let hostIsolation: any Actor
  private let hostName: String
  /// Hands the world's moves to the host in its isolation, which ``settled()`` waits for.
  private let moves: MoveDelivery
  /// Tells Observation of the controller's changes.
  private let observation = LazyObservationRegistrar()
  /// The body's rest and wake registrations that tell Observation of ``isResting``: made at its
  /// first read, so that a controller nobody observes costs its world's announcements nothing.
  private let restTracking = LockedState<[CancellationToken]?>(nil)

  private init(
    body: DynamicBody, state: State, hostName: String, hostIsolation: any Actor,
    moves: MoveDelivery, readCenter: @escaping @Sendable () -> CGPoint?
  ) {
    self.body = body
    self.state = LockedState(state)
    self.hostIsolation = hostIsolation
    self.hostName = hostName
    self.moves = moves
    self.readCenter = readCenter
  }

  /// Makes any object draggable, given a key path to its centre, and stores the controller in
  /// its associated storage (replacing an earlier one).
  ///
  /// - Parameters:
  ///   - host: The object; it is held weakly.
  ///   - center: The key path to the object's centre, written in `isolation`. A centre the
  ///     world cannot hold (not finite, or beyond its coordinates) is reported, replaced as
  ///     `DynamicsWorld/makeBody(at:bounds:)` replaces it, and written to the object at once.
  ///   - snapPoint: Where the object comes to rest; its current centre if `nil`.
  ///   - snap: The spring that snaps it there; `UISnapBehavior`'s default unless given (see
  ///     `DampedSpring.snap(damping:frequency:)`).
  ///   - bounds: A rectangle the centre may not leave, or `nil`. Of zero width or height it is a
  ///     track or a single point. A snap point outside it, which the centre cannot reach, is
  ///     reported and taken to the nearest point inside.
  ///   - rubberBand: The resistance past the bounds, or `nil` for walls (see ``RubberBand``).
  ///   - attachment: The spring tying the object to the finger; `nil`, rigid, by default.
  ///   - world: The dynamics world that moves the object.
  ///   - isolation: Where the object lives, and where its centre is written: the caller's
  ///     isolation unless given. For a main-actor host, on the main actor: at once when the
  ///     world's clock ticks on the main queue, else later on the main actor.
  /// - Returns: The controller now attached to `host`.
  @inlinable @discardableResult
  public static func attach<Host: AnyObject>(
    to host: Host, center: consuming any ReferenceWritableKeyPath<Host, CGPoint> & Sendable,
    snapPoint: CGPoint? = nil, snap: DampedSpring = .snap(), bounds: CGRect? = nil,
    rubberBand: RubberBand? = nil, attachment: DampedSpring? = nil,
    world: DynamicsWorld = .shared, isolation: isolated (any Actor) = #isolation
  ) -> DragController {
    // Inlined where the key path is written, and handing it on without keeping a reference of
    // its own: see `PositionAccess`. Everything else happens out of line.
    attach(
      to: host, center: PositionAccess(center), snapPoints: snapPoint.map { [$0] },
      snap: snap, bounds: bounds, rubberBand: rubberBand, attachment: attachment,
      world: world, isolation: isolation)
  }

  /// Makes any object draggable between detents, given a key path to its centre, and stores
  /// the controller in its associated storage (replacing an earlier one).
  ///
  /// When let go, the object snaps to the snap point nearest where its fling would carry it
  /// (see ``DragRelease``), unless a handler given to `onRelease(_:)` decides
  /// otherwise.
  ///
  /// - Parameters:
  ///   - host: The object; it is held weakly.
  ///   - center: The key path to the object's centre, written in `isolation`. A centre the
  ///     world cannot hold (not finite, or beyond its coordinates) is reported, replaced as
  ///     `DynamicsWorld/makeBody(at:bounds:)` replaces it, and written to the object at once.
  ///   - snapPoints: The detents. Non-finite points are reported and left out; with none
  ///     left, the object's current centre is the only one.
  ///   - snap: The spring that snaps it to a detent; `UISnapBehavior`'s default unless given.
  ///   - bounds: A rectangle the centre may not leave, or `nil`. Of zero width or height it is a
  ///     track or a single point. A snap point outside it, which the centre cannot reach, is
  ///     reported and taken to the nearest point inside.
  ///   - rubberBand: The resistance past the bounds, or `nil` for walls (see ``RubberBand``).
  ///   - attachment: The spring tying the object to the finger; `nil`, rigid, by default.
  ///   - world: The dynamics world that moves the object.
  ///   - isolation: Where the object lives, and where its centre is written: the caller's
  ///     isolation unless given. For a main-actor host, on the main actor: at once when the
  ///     world's clock ticks on the main queue, else later on the main actor.
  /// - Returns: The controller now attached to `host`.
  @inlinable @discardableResult
  public static func attach<Host: AnyObject>(
    to host: Host, center: consuming any ReferenceWritableKeyPath<Host, CGPoint> & Sendable,
    snapPoints: [CGPoint], snap: DampedSpring = .snap(), bounds: CGRect? = nil,
    rubberBand: RubberBand? = nil, attachment: DampedSpring? = nil,
    world: DynamicsWorld = .shared, isolation: isolated (any Actor) = #isolation
  ) -> DragController {
    attach(
      to: host, center: PositionAccess(center), snapPoints: snapPoints, snap: snap,
      bounds: bounds, rubberBand: rubberBand, attachment: attachment, world: world,
      isolation: isolation)
  }

  /// `attach(to:center:snapPoints:snap:bounds:rubberBand:attachment:world:)` with the
  /// centre reached through `center`; `nil` snap points snap to the start.
  @usableFromInline
  static func attach(
    to host: AnyObject, center: PositionAccess, snapPoints: [CGPoint]?, snap: DampedSpring,
    bounds: CGRect?, rubberBand: RubberBand?, attachment: DampedSpring?, world: DynamicsWorld,
    isolation: any Actor
  ) -> DragController {
    let reference = AnyWeakReference(host)
    let centre = center.read(from: host)
    // Written in the host's isolation: at once where the world runs there, else later there,
    // the newest move, never on the clock's thread.
    let handler = MoveHandler(
      delivery: world.delivery(for: isolation), isHostAlive: { reference.object != nil },
      onMove: { point in
        guard let host = reference.object else { return false }
        center.write(point, to: host)
        return true
      })
    let body = world.makeBody(at: centre, bounds: bounds, handler: handler)
    // Where the world put the body: a centre it cannot hold is replaced there, and reported,
    // and the host is moved there now (this is its isolation), so that the two agree before
    // the first drag; a centre the world held is left as it is.
    let start = body.position
    if start != centre { center.write(start, to: host) }
    if let rubberBand { body.rubberBand = rubberBand }
    var points = (snapPoints ?? [start]).filter { point in
      guard point.isFinite else {
        diagnose("snap point \(point) is not finite; left out")
        return false
      }
      return true
    }
    if points.isEmpty {
      diagnose("no usable snap points; snapping to \(start)")
      points = [start]
    }
    points = points.map { reachable($0, in: body.bounds) }
    let controller = DragController(
      body: body,
      state: State(
        snapPoints: points, snapPoint: nearest(to: start, in: points), snap: snap,
        attachment: attachment),
      hostName: "\(type(of: host))", hostIsolation: isolation, moves: handler.delivery,
      readCenter: { reference.object.map(center.read(from:)) })
    return Associations(of: host).attach(controller)
  }

  /// Whether a finger holds the object.
  public var isDragging: Bool {
    observation.access(self, keyPath: \.isDragging)
    return state.withLock { $0.isDragging }
  }

  /// Whether the object rests: let go and settled at its snap point, or held still; the
  /// body's `DynamicBody/isResting`, made observable here.
  ///
  /// A tracker of it is told after the frame that brought the body to rest, on the world
  /// clock's context, and as the body wakes, on the thread that woke it.
  public var isResting: Bool {
    observation.access(self, keyPath: \.isResting)
    trackRest()
    return body.isResting
  }

  /// Registers, once, the body's rest and wake announcements that tell Observation of
  /// ``isResting``. They hold the controller weakly.
  private func trackRest() {
    guard restTracking.withLock({ $0 == nil }) else { return }
    // Nonisolated: told where the world announces, which is where the change happened.
    let told: @Sendable () -> Void = { [weak self] in
      guard let self else { return }
      observation.willSet(self, keyPath: \.isResting)
      observation.didSet(self, keyPath: \.isResting)
    }
    // Made outside the lock: the world takes its own.
    let tokens = [
      body.observe(.rest, IsolatedCallback(nonisolated: told)),
      body.observe(.wake, IsolatedCallback(nonisolated: told)),
    ]
    let unwanted = restTracking.withLock { tracking -> [CancellationToken] in
      guard tracking == nil else { return tokens }
      tracking = tokens
      return []
    }
    for token in unwanted { token.cancel() }
  }

  /// Runs `change`, a change of `keyPath`, between Observation's `willSet` and `didSet`;
  /// outside every lock, since the trackers' `onChange` runs in `willSet`.
  private func changing<Member, Result>(
    _ keyPath: KeyPath<DragController, Member>, _ change: () throws -> Result
  ) rethrows -> Result {
    try observation.withMutation(of: self, keyPath: keyPath, change)
  }

  /// The snap point the object rests at or heads for: one of ``snapPoints``.
  ///
  /// Setting it makes it the only snap point; while the object snaps, it goes there instead,
  /// keeping its velocity. A non-finite point is reported and ignored.
  public var snapPoint: CGPoint {
    get {
      observation.access(self, keyPath: \.snapPoint)
      return state.withLock { $0.snapPoint }
    }
    set { snapPoints = [newValue] }
  }

  /// The detents: the points the object may come to rest at when let go.
  ///
  /// Setting them while the object snaps sends it to the new point nearest its target,
  /// keeping its velocity. Non-finite points are reported and left out; an empty list is
  /// reported and ignored.
  ///
  /// ```swift
  /// sheet.dragController?.snapPoints = [collapsed, half, full]
  /// ```
  public var snapPoints: [CGPoint] {
    get {
      observation.access(self, keyPath: \.snapPoints)
      return state.withLock { $0.snapPoints }
    }
    set {
      let points = newValue.filter { point in
        guard point.isFinite else {
          diagnose("snap point \(point) is not finite; left out")
          return false
        }
        return true
      }
      guard !points.isEmpty else {
        diagnose("no usable snap points in \(newValue); ignored")
        return
      }
      let bounds = body.bounds
      let reachablePoints = points.map { Self.reachable($0, in: bounds) }
      let snap = changing(\.snapPoints) {
        changing(\.snapPoint) {
          state.withLock { state -> Snap? in
            state.snapPoints = reachablePoints
            state.snapPoint = Self.nearest(to: state.snapPoint, in: reachablePoints)
            return state.isDragging ? nil : Snap(to: state.snapPoint, spring: state.snap)
          }
        }
      }
      if let snap, case .snap = body.behavior { body.snap(snap) }
    }
  }

  /// The spring that snaps the object to its snap point when let go.
  ///
  /// ```swift
  /// card.dragController?.snap = .bouncy
  /// card.dragController?.snap = .snap(damping: 0.8)  // as UISnapBehavior(damping: 0.8)
  /// ```
  public var snap: DampedSpring {
    get {
      observation.access(self, keyPath: \.snap)
      return state.withLock { $0.snap }
    }
    set {
      let snap = changing(\.snap) {
        state.withLock { state -> Snap? in
          state.snap = newValue
          return state.isDragging ? nil : Snap(to: state.snapPoint, spring: newValue)
        }
      }
      // As `UISnapBehavior`'s: a snap in flight changes its spring, keeping its velocity.
      if let snap, case .snap = body.behavior { body.snap(snap) }
    }
  }

  /// How fast a fling is taken to slow down when projecting where it would carry the object
  /// (see ``DragRelease``); UIScrollView's `.normal` by default.
  public var decelerationRate: DecelerationRate {
    get {
      observation.access(self, keyPath: \.decelerationRate)
      return state.withLock { $0.decelerationRate }
    }
    set { changing(\.decelerationRate) { state.withLock { $0.decelerationRate = newValue } } }
  }

  /// The last time a finger let go with a fling: where, how fast (in points per second), and
  /// where the fling was projected to carry the object; `nil` before the first.
  ///
  /// What a hand-off needs to continue the throw with an animation (see
  /// ``DragRelease/Decision/handOff``).
  public var lastRelease: DragRelease? {
    observation.access(self, keyPath: \.lastRelease)
    return state.withLock { $0.lastRelease }
  }

  /// Decides what happens to the object each time a finger lets go with a fling, replacing
  /// an earlier handler: snap to the nearest snap point (the default), to another point (throw
  /// to dismiss), back to where it was (a veto), or hand the object off to the app.
  ///
  /// The handler runs as the drag ends, before `drag(_:)` returns, when it can
  /// run there: written in the isolation the drag events come from (a main-actor view's
  /// gesture handler), when that is the main actor and the events come on the main queue. Otherwise it runs later on its actor, and the
  /// object holds still where it was let go until it has decided. Cancelled and failed
  /// gestures snap back without asking it. The controller lives in the object's storage and
  /// keeps the handler: capture the object weakly in it, or the object keeps itself alive.
  ///
  /// The handler may call back into the controller, the object or other cards (their drags,
  /// `snapPoints`, `makeDraggable`). Its decision is applied after it returns, to the state it
  /// left: a drag it began wins and the decision is dropped; `.snapToNearest` and `.snapBack`
  /// read the snap points as they are then; after a `removeDraggable()` or a new
  /// `makeDraggable`, the decision is dropped and reported at the `drag(_:)` caller's line.
  ///
  /// ```swift
  /// card.makeDraggable(snapPoints: [home])
  ///   .onRelease { release in
  ///     release.projectedPosition.y > 600 ? .snap(to: CGPoint(x: 160, y: 1_200)) : .snapToNearest
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where `decide` runs; the caller's isolation unless given.
  ///   - decide: Told of the release; returns what to do.
  /// - Returns: The controller, for chaining.
  @discardableResult
  public func onRelease(
    isolation: isolated (any Actor) = #isolation,
    _ decide: @escaping (DragRelease) -> DragRelease.Decision
  ) -> DragController {
    let handler = ReleaseHandler(decide: decide)
    let replaced = state.withLock { state in
      defer { state.releaseHandler = handler }
      return state.releaseHandler
    }
    // The replaced handler, and what it captures, are released here, outside the lock.
    withExtendedLifetime(replaced) {}
    return self
  }

  /// Waits until the object rests (let go and snapped home, or held still), its body left the
  /// world, or the task is cancelled, and the moves written before then have reached the
  /// object: for a host on an actor whose world ticks elsewhere, they are enqueued there.
  ///
  /// ```swift
  /// card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
  /// await card.dragController?.settled()  // back at its snap point: as card.dragSettled()
  /// ```
  public nonisolated(nonsending) func settled() async {
    await body.settled()
    await moves.delivered()
  }

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
    _ event: DragEvent, isolation: isolated (any Actor) = #isolation, fileID: String = #fileID,
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

  /// Takes the body out of its world, whatever the ending: detached, replaced, or the host
  /// died. Idempotent.
  public func didEnd(_ ending: CapabilityEnding) {
    changing(\.isDragging) { state.withLock { $0.isDragging = false } }
    body.remove()
    // The body left its world, which dropped the registrations; the tokens go with it.
    let tracking = restTracking.withLock { $0.take() }
    withExtendedLifetime(tracking) {}
  }

  /// Whether a drag is in progress, and where the body is.
  public var description: String {
    // Not through `isDragging`: a description is no tracked read.
    let dragging = state.withLock { $0.isDragging }
    return "DragController(\(hostName), \(dragging ? "dragging" : "released"), \(body))"
  }

  private func begin(at location: CGPoint, centre: CGPoint, site: ReportSite) {
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
  private func release(
    _ velocity: CGPoint, _ ending: Ending, from caller: isolated (any Actor), site: ReportSite
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
  private func act(
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
  private enum Target {
    /// This point.
    case point(CGPoint)
    /// The snap point nearest this one, of the snap points as they are.
    case nearest(CGPoint)
    /// The snap point as it is: the previous one, unless snap points were set meanwhile.
    case current
  }

  /// Snaps to `target` from `velocity`, unless drag `drag` is over (a later drag began).
  private func snap(to target: Target, velocity: CGPoint, drag: Int) {
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

  private func isCurrent(_ drag: Int) -> Bool {
    state.withLock { $0.drags == drag && !$0.isDragging }
  }

  /// Ends the drag; returns what the release needs, or `nil` (reported) with no drag in
  /// progress.
  private func endDrag(_ event: DragEvent, site: ReportSite) -> Ending? {
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

  /// `point`, or the nearest point of `bounds` when it lies outside them, reported: a point
  /// the centre can never reach, since it may not leave the bounds. Bounds of zero width or
  /// height are a track or a single point, and every snap point is taken onto it.
  static func reachable(
    _ point: CGPoint, in bounds: CGRect?, at site: ReportSite? = nil
  ) -> CGPoint {
    guard let bounds else { return point }
    let held = CGPoint(
      x: min(max(point.x, bounds.minX), bounds.maxX),
      y: min(max(point.y, bounds.minY), bounds.maxY))
    guard held != point else { return point }
    diagnose(
      "snap point \(point) is outside the bounds \(bounds), which the centre may not leave; "
        + "it rests at \(held), the nearest point inside, instead", at: site)
    return held
  }

  /// `point` held within `±bound` in each coordinate, or `nil` when it is within already.
  static func held(_ point: CGPoint, within bound: Double) -> CGPoint? {
    let x = min(max(Double(point.x), -bound), bound)
    let y = min(max(Double(point.y), -bound), bound)
    guard x != Double(point.x) || y != Double(point.y) else { return nil }
    return CGPoint(x: x, y: y)
  }

  /// The point of `points` (not empty) nearest `target`; the first of equally near ones.
  static func nearest(to target: CGPoint, in points: [CGPoint]) -> CGPoint {
    var best = points[0]
    var bestDistance = best.distance(to: target)
    for point in points.dropFirst() {
      let distance = point.distance(to: target)
      if distance < bestDistance { (best, bestDistance) = (point, distance) }
    }
    return best
  }

  private func isDraggingOrReport(_ event: DragEvent, site: ReportSite) -> Bool {
    // Not through `isDragging`, whose read would make every later change tell Observation.
    guard state.withLock({ $0.isDragging }) else {
      diagnose("\(event) with no drag in progress; ignored", at: site)
      return false
    }
    return true
  }

  private func isFinite(_ location: CGPoint, in event: DragEvent, site: ReportSite) -> Bool {
    guard location.isFinite else {
      diagnose("\(event): the location is not finite; ignored", at: site)
      return false
    }
    return true
  }
}

/// A release handler, bound to the isolation it was written in.
private final class ReleaseHandler: Sendable {
  private let body: IsolationBound<(DragRelease) -> DragRelease.Decision>

  init(
    decide: @escaping (DragRelease) -> DragRelease.Decision,
    isolation: isolated (any Actor) = #isolation
  ) {
    body = IsolationBound(decide)
  }

  /// Decides at once when `caller` is the handler's isolation; `nil` elsewhere.
  func decide(_ release: DragRelease, from caller: isolated (any Actor)) -> DragRelease.Decision? {
    // Read out of the bound first: the handler may call back into this controller (another
    // drag, its snap points), or into another card whose handler calls this one.
    guard let decide = body.value(isolation: caller) else { return nil }
    return decide(release)
  }

  /// Decides on the handler's isolation, then hands the decision to `act` there.
  func later(
    _ release: DragRelease, _ act: @escaping @Sendable (DragRelease.Decision) -> Void
  ) {
    IsolatedCallback<DragRelease>(on: body.isolation) { [body] isolation, release in
      if let decide = body.value(isolation: isolation) { act(decide(release)) }
    }(release)
  }
}

/// The centre property of a host, read and written through a closure that captures the key
/// path and nothing else.
///
/// Made where the caller writes the key path, since
/// `DragController.attach(to:center:snapPoint:snap:bounds:rubberBand:attachment:world:)`
/// is inlined
/// there and hands the key path on without keeping a reference of its own. The closure is then
/// the key path's only user, and the optimizer specializes it on the literal key path: its reads
/// and writes become calls of the property's accessors, a few nanoseconds a frame instead of the
/// hundreds of a run-time key-path write. Code that is not optimized, or a key path that is not
/// a literal, still works, at the run time's cost.
@usableFromInline
struct PositionAccess: Sendable {
  /// Reads the position into the pointer, or writes it from there when the flag is set.
  @usableFromInline
  let body: @Sendable (AnyObject, UnsafeMutablePointer<CGPoint>, Bool) -> Void

  /// The property `keyPath` names; it may only be applied to hosts of type `Host`.
  @inlinable
  init<Host: AnyObject>(
    _ keyPath: consuming any ReferenceWritableKeyPath<Host, CGPoint> & Sendable
  ) {
    let keyPath = keyPath
    body = { object, point, writes in
      // Applied only to the host the controller was attached to, a `Host`. Checked in debug
      // builds.
      let host = unsafeDowncast(object, to: Host.self)
      if writes {
        host[keyPath: keyPath] = point.pointee
      } else {
        point.pointee = host[keyPath: keyPath]
      }
    }
  }

  func read(from host: AnyObject) -> CGPoint {
    var point = CGPoint.zero
    body(host, &point, false)
    return point
  }

  func write(_ point: CGPoint, to host: AnyObject) {
    var point = point
    body(host, &point, true)
  }
}
