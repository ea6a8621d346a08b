import Affix
public import Foundation

/// An object with a position that a finger can drag and that snaps back when let go.
///
/// Conform a type that has a centre point, then make an instance draggable and feed it the
/// events of a pan gesture:
///
/// ```swift
/// final class Card: Draggable {
///   var position = CGPoint(x: 160, y: 240)
/// }
///
/// let card = Card()
/// card.makeDraggable(damping: 0.6)
/// card.drag(.began(at: CGPoint(x: 170, y: 250)))
/// card.drag(.changed(to: CGPoint(x: 220, y: 300)))
/// card.drag(.ended(velocity: Vector2D(dx: 300, dy: 0)))  // springs back to (160, 240)
/// ```
///
/// The drag state lives in the object's associated storage as a ``DragController``; an object
/// that does not conform can be made draggable with
/// ``DragController/attach(to:position:snapPoint:damping:bounds:attachment:world:)``.
/// The world writes `position` on its frame clock's context (the main queue for
/// ``DynamicsWorld/shared``): touch the object there. A main-actor view conforms for the main
/// actor alone, with an isolated conformance: `extension CardView: @MainActor Draggable {}`.
public protocol Draggable: AnyObject {
  /// The centre of the object, in the coordinate space of the drag events.
  var position: CGPoint { get set }
}

extension Draggable {
  /// Makes the object draggable: while dragged it follows the finger at the point it was
  /// touched; when let go it snaps to `snapPoint`, starting with the release velocity.
  ///
  /// Calling it again replaces the previous configuration (and ends a drag in progress).
  ///
  /// - Parameters:
  ///   - snapPoint: Where the object comes to rest; its current position if `nil`.
  ///   - damping: The snap damping, 0...1, as `UISnapBehavior`'s (see ``Snap``).
  ///   - bounds: A rectangle the object's centre may not leave, or `nil`.
  ///   - attachment: The spring tying the object to the finger; rigid by default.
  ///   - world: The dynamics world that moves the object.
  /// - Returns: The controller holding the drag state, also reachable as ``dragController``.
  @discardableResult
  public func makeDraggable(
    snapPoint: CGPoint? = nil, damping: Double = Snap.defaultDamping, bounds: CGRect? = nil,
    attachment: DynamicsSpring = .rigid, world: DynamicsWorld = .shared
  ) -> DragController {
    DragController.attach(
      to: self, position: \Self.position, snapPoint: snapPoint, damping: damping,
      bounds: bounds, attachment: attachment, world: world)
  }

  /// Stops the object being draggable: its body leaves the world where it is, and drag
  /// events are no longer handled. Reported as a diagnostic if it was not draggable.
  public func removeDraggable() {
    if Associations(of: self).detach(DragController.self) == nil {
      Diagnostics.report(
        DragController.subsystem, "removeDraggable(): \(Self.self) is not draggable")
    }
  }

  /// Handles one event of a pan gesture (see ``DragEvent``), as the seed's gesture handler.
  ///
  /// Reported as a diagnostic, and ignored, if the object is not draggable.
  public func drag(_ event: DragEvent) {
    guard let controller = dragController else {
      Diagnostics.report(
        DragController.subsystem,
        "drag(\(event)): \(Self.self) is not draggable; call makeDraggable() first")
      return
    }
    controller.handle(event)
  }

  /// The drag state of the object, if it is draggable.
  public var dragController: DragController? {
    Associations(of: self).capability(DragController.self)
  }

  /// Whether the object is draggable.
  public var isDraggable: Bool { dragController != nil }
}
