public import AffixMotion
import AffixScheduling
public import Foundation

/// A snap to a point, as UIKit's `UISnapBehavior`: the body springs to the point and settles.
///
/// The spring is the one every Affix motion uses, `DampedSpring`: a preset as SwiftUI names
/// them, or `UISnapBehavior`'s damping through `DampedSpring.snap(damping:frequency:)`,
/// the default.
///
/// ```swift
/// body.snap(Snap(to: CGPoint(x: 160, y: 240), spring: .snappy))
/// body.snap(Snap(to: CGPoint(x: 160, y: 240), spring: .snap(damping: 0.7)))
/// ```
public struct Snap: Sendable, Hashable {
  /// The point the body's centre snaps to.
  public var point: CGPoint

  /// The spring that pulls the body to the point; the body starts with its own velocity.
  public var spring: DampedSpring

  /// Creates a snap to `point`.
  ///
  /// - Parameters:
  ///   - point: Where the body's centre comes to rest.
  ///   - spring: The spring; by default `UISnapBehavior`'s default damping, 0.5.
  public init(to point: CGPoint, spring: DampedSpring = .snap()) {
    self.point = point
    self.spring = spring
  }
}

extension DampedSpring {
  /// The spring of a `UISnapBehavior` with this `damping`.
  ///
  /// UIKit does not document how its snap `damping` (0...1, default 0.5) maps to physics.
  /// Affix makes it a spring of `frequency` hertz whose damping ratio is
  /// `0.1 + 0.9 × damping`: damping 0 is lively (ratio 0.1) but still comes to rest, 0.5
  /// overshoots a little (ratio 0.55), 1 is critically damped and never overshoots.
  ///
  /// ```swift
  /// card.makeDraggable(snap: .snap(damping: 0.8))  // as UISnapBehavior(damping: 0.8)
  /// ```
  ///
  /// - Parameters:
  ///   - damping: 0...1; outside, it is clamped, and a non-finite one is replaced by 0.5,
  ///     each reported through `Diagnostics`.
  ///   - frequency: The natural frequency in hertz; 2 unless given.
  /// - Returns: `DampedSpring(frequency: frequency, dampingRatio: 0.1 + 0.9 × damping)`.
  public static func snap(damping: Double = 0.5, frequency: Double = 2) -> DampedSpring {
    var damping = damping
    if !damping.isFinite {
      diagnose("snap damping \(damping) is not finite; using 0.5")
      damping = 0.5
    } else if damping < 0 || damping > 1 {
      let clamped = min(max(damping, 0), 1)
      diagnose("snap damping \(damping) is outside 0...1; using \(clamped)")
      damping = clamped
    }
    return DampedSpring(frequency: frequency, dampingRatio: 0.1 + 0.9 * damping)
  }
}
