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

  /// The body that moves the object.
  public let body: DynamicBody
  let state: LockedState<State>
  /// Reads the object's centre; `nil` once the object has died.
  let readCenter: @Sendable () -> CGPoint?
  /// Where the object lives: the only isolation whose events may read its centre.
  let hostIsolation: any Actor
  let hostName: String
  /// Hands the world's moves to the host in its isolation, which ``settled()`` waits for.
  let moves: MoveDelivery
  /// Tells Observation of the controller's changes.
  let observation = LazyObservationRegistrar()
  /// The body's rest and wake registrations that tell Observation of ``isResting``: made at its
  /// first read, so that a controller nobody observes costs its world's announcements nothing.
  let restTracking = LockedState<[CancellationToken]?>(nil)

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
    world: DynamicsWorld = .shared, isolation: isolated (any Actor)? = #isolation
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
    world: DynamicsWorld = .shared, isolation: isolated (any Actor)? = #isolation
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
    isolation: (any Actor)?
  ) -> DragController {
    guard
      let isolation = CallerIsolation.required(
        isolation, by: "makeDraggable", subsystem: subsystem)
    else { return refused(host, world: world) }
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

  /// The controller of a host made draggable outside any actor, where nothing may write its
  /// centre: not attached, its body out of the world at once, its events reported and ignored.
  static func refused(_ host: AnyObject, world: DynamicsWorld) -> DragController {
    let handler = MoveHandler(
      delivery: world.delivery(for: Nowhere.shared), isHostAlive: { false },
      onMove: { _ in false })
    let body = world.makeBody(at: .zero, bounds: nil, handler: handler)
    body.remove()
    return DragController(
      body: body,
      state: State(snapPoints: [.zero], snapPoint: .zero, snap: .snap(), attachment: nil),
      hostName: "\(type(of: host)) made draggable outside any actor",
      hostIsolation: Nowhere.shared, moves: handler.delivery, readCenter: { nil })
  }

  /// The isolation of a refused controller: no caller is ever on it.
  actor Nowhere {
    static let shared = Nowhere()
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
  func trackRest() {
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
  func changing<Member, Result>(
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

  /// Decides what happens to the object each time a finger lets go with a fling.
  ///
  /// The handler replaces an earlier one. It may snap to the nearest snap point (the default),
  /// to another point (throw to dismiss), back to where it was (a veto), or hand the object off
  /// to the app.
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
    isolation: isolated (any Actor)? = #isolation,
    _ decide: @escaping (DragRelease) -> DragRelease.Decision
  ) -> DragController {
    guard CallerIsolation.required(isolation, by: "onRelease", subsystem: Self.subsystem) != nil
    else { return self }
    let handler = ReleaseHandler(decide: decide)
    let replaced = state.withLock { state in
      defer { state.releaseHandler = handler }
      return state.releaseHandler
    }
    // The replaced handler, and what it captures, are released here, outside the lock.
    withExtendedLifetime(replaced) {}
    return self
  }

  /// Waits until the object rests, its body left the world, or the task is cancelled.
  ///
  /// The object rests once let go and snapped home, or held still. The moves written before
  /// then have reached the object when this returns: for a host on an actor whose world ticks
  /// elsewhere, they are enqueued there.
  ///
  /// ```swift
  /// card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
  /// await card.dragController?.settled()  // back at its snap point: as card.dragSettled()
  /// ```
  public nonisolated(nonsending) func settled() async {
    await body.settled()
    await moves.delivered()
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
}
