public import Affix
public import Foundation

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
/// let drag = DragController.attach(to: marker, position: \.centre)
/// drag.handle(.began(at: CGPoint(x: 45, y: 42)))
/// ```
public final class DragController: Capability, CustomStringConvertible {
  static let subsystem = "drag"

  private struct State {
    var isDragging = false
    var snapPoint: CGPoint
    var damping: Double
    var attachment: DynamicsSpring
  }

  /// The body that moves the object.
  public let body: DynamicBody
  private let state: Locked<State>
  /// Reads the object's position; `nil` once the object has died.
  private let readPosition: @Sendable () -> CGPoint?
  private let hostName: String

  private init(
    body: DynamicBody, state: State, hostName: String,
    readPosition: @escaping @Sendable () -> CGPoint?
  ) {
    self.body = body
    self.state = Locked(state)
    self.hostName = hostName
    self.readPosition = readPosition
  }

  /// Makes any object draggable, given a key path to its centre, and stores the controller in
  /// its associated storage (replacing an earlier one).
  ///
  /// - Parameters:
  ///   - host: The object; it is held weakly.
  ///   - position: The key path to the object's centre, written on the world's frame clock
  ///     context.
  ///   - snapPoint: Where the object comes to rest; its current position if `nil`.
  ///   - damping: The snap damping, 0...1 (see ``Snap``).
  ///   - bounds: A rectangle the centre may not leave, or `nil`.
  ///   - attachment: The spring tying the object to the finger; rigid by default.
  ///   - world: The dynamics world that moves the object.
  /// - Returns: The controller now attached to `host`.
  @inlinable @discardableResult
  public static func attach<Host: AnyObject>(
    to host: Host, position: consuming any ReferenceWritableKeyPath<Host, CGPoint> & Sendable,
    snapPoint: CGPoint? = nil, damping: Double = Snap.defaultDamping, bounds: CGRect? = nil,
    attachment: DynamicsSpring = .rigid, world: DynamicsWorld = .shared
  ) -> DragController {
    // Inlined where the key path is written, and handing it on without keeping a reference of
    // its own: see `PositionAccess`. Everything else happens out of line.
    attach(
      to: host, position: PositionAccess(position), snapPoint: snapPoint, damping: damping,
      bounds: bounds, attachment: attachment, world: world)
  }

  /// ``attach(to:position:snapPoint:damping:bounds:attachment:world:)`` with the position
  /// reached through `position`.
  @usableFromInline
  static func attach(
    to host: AnyObject, position: PositionAccess, snapPoint: CGPoint?, damping: Double,
    bounds: CGRect?, attachment: DynamicsSpring, world: DynamicsWorld
  ) -> DragController {
    let reference = AnyWeakReference(host)
    let start = position.read(from: host)
    let body = world.makeBody(
      at: start, bounds: bounds,
      handler: { point in
        guard let host = reference.object else { return false }
        position.write(point, to: host)
        return true
      })
    var snap = Snap(to: snapPoint ?? start, damping: damping)
    if !snap.point.isFinite {
      Diagnostics.report(
        subsystem, "snap point \(snap.point) is not finite; snapping to \(start) instead")
      snap.point = start
    }
    snap = snap.validated()
    let controller = DragController(
      body: body,
      state: State(
        snapPoint: snap.point, damping: snap.damping,
        attachment: attachment.validated("attachment")),
      hostName: "\(type(of: host))",
      readPosition: { reference.object.map(position.read(from:)) })
    return Associations(of: host).attach(controller)
  }

  /// Whether a finger holds the object.
  public var isDragging: Bool { state.withLock { $0.isDragging } }

  /// Where the object snaps back to. Setting it while the object snaps sends it to the new
  /// point; a non-finite point is reported and ignored.
  public var snapPoint: CGPoint {
    get { state.withLock { $0.snapPoint } }
    set {
      guard newValue.isFinite else {
        Diagnostics.report(Self.subsystem, "snap point \(newValue) is not finite; ignored")
        return
      }
      let snap = state.withLock { state -> Snap? in
        state.snapPoint = newValue
        return state.isDragging ? nil : Snap(to: newValue, damping: state.damping)
      }
      if let snap, case .snap = body.behavior { body.snap(snap) }
    }
  }

  /// The snap damping, 0...1 (see ``Snap``). Values outside are clamped, with a diagnostic.
  public var damping: Double {
    get { state.withLock { $0.damping } }
    set {
      let damping = Snap(to: .zero, damping: newValue).validated().damping
      let snap = state.withLock { state -> Snap? in
        state.damping = damping
        return state.isDragging ? nil : Snap(to: state.snapPoint, damping: damping)
      }
      // As `UISnapBehavior`'s: a snap in flight changes its spring, keeping its velocity.
      if let snap, case .snap = body.behavior { body.snap(snap) }
    }
  }

  /// Waits until the object rests (let go and snapped home, or held still), its body left the
  /// world, or the task is cancelled.
  ///
  /// ```swift
  /// card.drag(.ended(velocity: Vector2D(dx: 400, dy: 0)))
  /// await card.dragController?.settled()  // back at its snap point
  /// ```
  public func settled() async {
    await body.settled()
  }

  /// Handles one event of a pan gesture (see ``DragEvent``).
  ///
  /// Events out of order (a change or an end with no drag in progress), non-finite locations
  /// and events for an object that has died are reported as diagnostics. A second `began`
  /// restarts the drag at the new location; an `ended` with a non-finite velocity ends the
  /// drag without a fling.
  public func handle(_ event: DragEvent) {
    guard !body.isRemoved else {
      report("\(event): the drag was removed; ignored")
      return
    }
    guard let centre = readPosition() else {
      report("\(event): the \(hostName) has died; removing its body")
      state.withLock { $0.isDragging = false }
      body.remove()
      return
    }
    switch event {
    case .began(let location):
      begin(at: location, centre: centre)
    case .changed(let location):
      guard isFinite(location, in: event), isDraggingOrReport(event) else { return }
      body.moveAnchor(to: location)
    case .ended(var velocity):
      guard let snap = endDrag(event) else { return }
      if !velocity.isFinite {
        report("\(event): the release velocity is not finite; snapping back without a fling")
        velocity = .zero
      }
      letGo(velocity: velocity, snap: snap)
    case .cancelled, .failed:
      guard let snap = endDrag(event) else { return }
      letGo(velocity: .zero, snap: snap)
    }
  }

  /// Takes the body out of its world. Called when the controller is detached or replaced.
  public func didDetach() {
    state.withLock { $0.isDragging = false }
    body.remove()
  }

  /// Whether a drag is in progress, and where the body is.
  public var description: String {
    "DragController(\(hostName), \(isDragging ? "dragging" : "released"), \(body))"
  }

  private func begin(at location: CGPoint, centre: CGPoint) {
    let event = DragEvent.began(at: location)
    guard isFinite(location, in: event) else { return }
    let (wasDragging, spring) = state.withLock { state in
      defer { state.isDragging = true }
      return (state.isDragging, state.attachment)
    }
    if wasDragging {
      report("\(event) while a drag is in progress; restarting the drag there")
    }
    // The object is authoritative: other code may have moved it since the last frame.
    body.position = centre
    let grabbed = body.position
    body.attach(Attachment(offset: location - grabbed, anchor: location, spring: spring))
  }

  private func letGo(velocity: Vector2D, snap: Snap) {
    body.velocity = velocity
    body.snap(snap)
  }

  /// Ends the drag; returns the snap to perform, or `nil` (reported) with no drag in progress.
  private func endDrag(_ event: DragEvent) -> Snap? {
    let snap = state.withLock { state -> Snap? in
      guard state.isDragging else { return nil }
      state.isDragging = false
      return Snap(to: state.snapPoint, damping: state.damping)
    }
    if snap == nil { report("\(event) with no drag in progress; ignored") }
    return snap
  }

  private func isDraggingOrReport(_ event: DragEvent) -> Bool {
    guard isDragging else {
      report("\(event) with no drag in progress; ignored")
      return false
    }
    return true
  }

  private func isFinite(_ location: CGPoint, in event: DragEvent) -> Bool {
    guard location.isFinite else {
      report("\(event): the location is not finite; ignored")
      return false
    }
    return true
  }

  private func report(_ message: String) {
    Diagnostics.report(Self.subsystem, message)
  }
}

/// The position property of a host, read and written through a closure that captures the key
/// path and nothing else.
///
/// Made where the caller writes the key path, since
/// ``DragController/attach(to:position:snapPoint:damping:bounds:attachment:world:)`` is inlined
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
