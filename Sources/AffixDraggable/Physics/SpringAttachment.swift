public import AffixMotion
import AffixScheduling
public import Foundation

/// An attachment of a point of a body to a moving anchor, as UIKit's `UIAttachmentBehavior`.
///
/// The attached point is the body's centre plus ``offset`` (bodies do not rotate). The spring
/// pulls that point towards the anchor until it is ``length`` points away from it; with no
/// spring (the default, as in UIKit) the point is held there exactly, so the body follows a
/// finger at the place it was touched.
///
/// ```swift
/// // Touched 12 points right of the centre; the finger is at (100, 80).
/// body.attach(SpringAttachment(offset: CGPoint(x: 12, y: 0), anchor: CGPoint(x: 100, y: 80)))
/// body.moveAnchor(to: CGPoint(x: 130, y: 95))
/// ```
///
/// The name is not `Attachment`, which Swift Testing and RealityKit declare.
public struct SpringAttachment: Sendable, Hashable {
  /// The attached point, as an offset from the body's centre.
  public var offset: CGPoint

  /// The point the body is attached to.
  public var anchor: CGPoint

  /// The distance the spring keeps between the attached point and the anchor, in points.
  public var length: Double

  /// The spring; `nil` holds the attached point at the anchor exactly (a rigid attachment).
  /// `UIAttachmentBehavior`'s `frequency` and `damping` are
  /// `DampedSpring(frequency:dampingRatio:)`.
  public var spring: DampedSpring?

  /// Creates an attachment.
  ///
  /// - Parameters:
  ///   - offset: The attached point, relative to the body's centre.
  ///   - anchor: The point the body is attached to.
  ///   - length: The rest distance between the attached point and the anchor (>= 0).
  ///   - spring: The spring; `nil`, rigid, by default.
  public init(
    offset: CGPoint = .zero, anchor: CGPoint, length: Double = 0, spring: DampedSpring? = nil
  ) {
    self.offset = offset
    self.anchor = anchor
    self.length = length
    self.spring = spring
  }
}
