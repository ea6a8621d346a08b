public import Foundation

/// A snap to a point, as UIKit's `UISnapBehavior`: the body springs to the point and settles.
///
/// UIKit does not document how its snap `damping` (0...1, default 0.5) maps to physics. Affix
/// makes it a spring of ``frequency`` hertz whose damping ratio is `0.1 + 0.9 × damping`:
/// damping 0 is lively (ratio 0.1) but still comes to rest, 0.5 overshoots a little
/// (ratio 0.55), 1 is critically damped and never overshoots.
///
/// ```swift
/// body.snap(Snap(to: CGPoint(x: 160, y: 240), damping: 0.7))
/// ```
public struct Snap: Sendable, Hashable {
  /// The point the body's centre snaps to.
  public var point: CGPoint
  /// How quickly oscillation dies out, 0...1. Values outside are clamped, with a diagnostic.
  public var damping: Double
  /// The natural frequency of the snap spring, in hertz.
  public var frequency: Double

  /// The snap damping UIKit uses by default.
  public static let defaultDamping = 0.5
  /// The natural frequency of a snap spring unless told otherwise, in hertz.
  public static let defaultFrequency = 2.0

  /// Creates a snap to `point`.
  ///
  /// - Parameters:
  ///   - point: Where the body's centre comes to rest.
  ///   - damping: 0...1; the default 0.5 matches UIKit's.
  ///   - frequency: The natural frequency of the snap spring, in hertz.
  public init(
    to point: CGPoint, damping: Double = Snap.defaultDamping,
    frequency: Double = Snap.defaultFrequency
  ) {
    self.point = point
    self.damping = damping
    self.frequency = frequency
  }

  /// The spring this snap moves the body with: ``frequency`` hertz, damping ratio
  /// `0.1 + 0.9 × damping` (damping clamped to 0...1).
  public var spring: DynamicsSpring {
    let clamped = damping.isFinite ? min(max(damping, 0), 1) : Snap.defaultDamping
    return DynamicsSpring(frequency: frequency, dampingRatio: 0.1 + 0.9 * clamped)
  }

  func validated() -> Snap {
    var snap = self
    if !damping.isFinite {
      diagnose("snap damping \(damping) is not finite; using \(Snap.defaultDamping)")
      snap.damping = Snap.defaultDamping
    } else if damping < 0 || damping > 1 {
      let clamped = min(max(damping, 0), 1)
      diagnose("snap damping \(damping) is outside 0...1; using \(clamped)")
      snap.damping = clamped
    }
    if !frequency.isFinite || frequency <= 0 {
      diagnose(
        "snap frequency \(frequency) Hz is not a finite value > 0; using \(Snap.defaultFrequency)")
      snap.frequency = Snap.defaultFrequency
    }
    return snap
  }
}
