import Affix
public import AffixMotion
import AffixScheduling
public import Foundation

/// An object with a centre that a finger can drag and that snaps back when let go.
///
/// Conform a type that has a centre point, then make an instance draggable and feed it the
/// events of a pan gesture:
///
/// ```swift
/// final class Card: Draggable {
///   var center = CGPoint(x: 160, y: 240)
/// }
///
/// let card = Card()
/// card.makeDraggable(snap: .snappy)
/// card.drag(.began(at: CGPoint(x: 170, y: 250)))
/// card.drag(.changed(to: CGPoint(x: 220, y: 300)))
/// card.drag(.ended(velocity: CGPoint(x: 300, y: 0)))  // springs back to (160, 240)
/// ```
///
/// The requirement is spelled `center`, as UIKit Dynamics' `UIDynamicItem` spells it, so that
/// a `UIView` (whose `center` is in its superview's coordinates, where its pan gesture reports
/// locations) adopts the protocol with no code: `extension MyView: @MainActor Draggable {}`.
///
/// The drag state lives in the object's associated storage as a ``DragController``; an object
/// that does not conform can be made draggable with
/// `DragController.attach(to:center:snapPoint:snap:bounds:rubberBand:attachment:world:)`.
/// The world writes `center` in the isolation `makeDraggable` was called from: a main-actor
/// view's on the main actor, whatever thread the world's clock ticks on. A main-actor view
/// conforms for the main actor alone, with an isolated conformance:
/// `extension CardView: @MainActor Draggable {}`.
public protocol Draggable: AnyObject {
  /// The centre of the object, in the coordinate space of the drag events.
  var center: CGPoint { get set }
}

extension Draggable {
  /// Makes the object draggable, snapping it to `snapPoint` when let go.
  ///
  /// While dragged it follows the finger at the point it was touched; when let go it snaps to
  /// `snapPoint`, starting with the release velocity. Calling it again replaces the previous
  /// configuration (and ends a drag in progress).
  ///
  /// - Parameters:
  ///   - snapPoint: Where the object comes to rest; its current centre if `nil`.
  ///   - snap: The spring that snaps it there: a preset such as `.snappy`, or
  ///     `UISnapBehavior`'s damping as `DampedSpring.snap(damping:frequency:)`,
  ///     the default.
  ///   - bounds: A rectangle the object's centre may not leave, or `nil`. Of zero width or
  ///     height it is a track or a single point. A snap point outside it, which the centre
  ///     cannot reach, is reported and taken to the nearest point inside.
  ///   - rubberBand: How the object resists being dragged past `bounds`, as a scroll view's
  ///     content does, and springs back when let go; `nil` for walls that stop it dead.
  ///   - attachment: The spring tying the object to the finger; `nil`, rigid, by default.
  ///   - world: The dynamics world that moves the object.
  ///   - isolation: Where the object lives, and where its centre is written: the caller's
  ///     isolation unless given.
  /// - Returns: The controller holding the drag state, also reachable as ``dragController``.
  @discardableResult
  public func makeDraggable(
    snapPoint: CGPoint? = nil, snap: DampedSpring = .snap(), bounds: CGRect? = nil,
    rubberBand: RubberBand? = nil, attachment: DampedSpring? = nil,
    world: DynamicsWorld = .shared, isolation: isolated (any Actor)? = #isolation
  ) -> DragController {
    DragController.attach(
      to: self, center: \Self.center, snapPoint: snapPoint, snap: snap,
      bounds: bounds, rubberBand: rubberBand, attachment: attachment, world: world,
      isolation: isolation)
  }

  /// Makes the object draggable between detents, snapping it to the one nearest where its
  /// fling would carry it.
  ///
  /// When let go, it snaps there, starting with the release velocity. The fling is projected as
  /// UIScrollView projects a scroll (see ``DragRelease``), so a flick carries the object to the
  /// next detent and a slow drop keeps the nearest. A handler given to
  /// `DragController.onRelease(_:)` can choose another target, refuse the move, or take the object
  /// over. Calling it again replaces the previous configuration (and ends a drag in progress). A
  /// centre the world cannot hold (not finite) is reported and replaced, in the object too, at
  /// once.
  ///
  /// ```swift
  /// sheet.makeDraggable(
  ///   snapPoints: [CGPoint(x: 160, y: 100), CGPoint(x: 160, y: 400), CGPoint(x: 160, y: 700)],
  ///   bounds: CGRect(x: 160, y: 100, width: 0, height: 600), rubberBand: .standard)
  /// ```
  ///
  /// - Parameters:
  ///   - snapPoints: The detents. Non-finite points are reported and left out; with none left,
  ///     the object's current centre is the only one.
  ///   - snap: The spring that snaps it to a detent; `UISnapBehavior`'s default unless given.
  ///   - bounds: A rectangle the object's centre may not leave, or `nil`. Of zero width or
  ///     height it is a track or a single point. A snap point outside it, which the centre
  ///     cannot reach, is reported and taken to the nearest point inside.
  ///   - rubberBand: How the object resists being dragged past `bounds`; `nil` for walls.
  ///   - attachment: The spring tying the object to the finger; `nil`, rigid, by default.
  ///   - world: The dynamics world that moves the object.
  ///   - isolation: Where the object lives, and where its centre is written: the caller's
  ///     isolation unless given.
  /// - Returns: The controller holding the drag state, also reachable as ``dragController``.
  @discardableResult
  public func makeDraggable(
    snapPoints: [CGPoint], snap: DampedSpring = .snap(), bounds: CGRect? = nil,
    rubberBand: RubberBand? = nil, attachment: DampedSpring? = nil,
    world: DynamicsWorld = .shared, isolation: isolated (any Actor)? = #isolation
  ) -> DragController {
    DragController.attach(
      to: self, center: \Self.center, snapPoints: snapPoints, snap: snap,
      bounds: bounds, rubberBand: rubberBand, attachment: attachment, world: world,
      isolation: isolation)
  }

  /// Stops the object being draggable: its body leaves the world where it is, and drag
  /// events are no longer handled. Reported as a diagnostic, naming the caller's line, if it
  /// was not draggable.
  public func removeDraggable(fileID: String = #fileID, line: Int = #line) {
    if Associations(of: self).removeCapability(DragController.self) == nil {
      Diagnostics.report(
        subsystem: DragController.subsystem,
        message: "removeDraggable(): \(Self.self) is not draggable",
        fileID: fileID, line: line)
    }
  }

  /// Handles one event of a pan gesture (see ``DragEvent``), as the seed's gesture handler.
  ///
  /// Reported as a diagnostic, and ignored, if the object is not draggable.
  ///
  /// - Parameters:
  ///   - event: The gesture's event.
  ///   - isolation: Where the events come from; the caller's isolation unless given. A
  ///     release handler written there runs before this returns.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func drag(
    _ event: DragEvent, isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID,
    line: Int = #line
  ) {
    guard let controller = dragController else {
      Diagnostics.report(
        subsystem: DragController.subsystem,
        message: "drag(\(event)): \(Self.self) is not draggable; call makeDraggable() first",
        fileID: fileID, line: line)
      return
    }
    controller.drag(event, isolation: isolation, fileID: fileID, line: line)
  }

  /// The drag state of the object, if it is draggable.
  public var dragController: DragController? {
    Associations(of: self).capability(DragController.self)
  }

  /// Whether the object is draggable.
  public var isDraggable: Bool { dragController != nil }

  /// Waits until the object rests and its moves have reached it; returns at once if it is not
  /// draggable. See ``DragController/settled()``.
  ///
  /// ```swift
  /// card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
  /// await card.dragSettled()  // back at its snap point
  /// ```
  public nonisolated(nonsending) func dragSettled() async {
    await dragController?.settled()
  }
}
