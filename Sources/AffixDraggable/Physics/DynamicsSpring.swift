/// The stiffness and damping of a spring, in the terms UIKit's `UIAttachmentBehavior` uses.
///
/// The springs of a ``DynamicsWorld``: an ``Attachment``'s, and a ``Snap``'s. (AffixDancing's
/// `Spring` is a different thing, a timing curve for animations.)
///
/// A spring of natural frequency `f` and damping ratio `ζ` moves a body of unit mass as the
/// damped oscillator `u'' + 2ζω u' + ω² u = 0` with `ω = 2πf`: a ratio below 1 overshoots and
/// rings, 1 (critical) returns fastest without overshoot, above 1 creeps back. A frequency of
/// zero makes the spring rigid: the body follows its target exactly, as an attachment with
/// the default frequency does in UIKit.
///
/// ```swift
/// let soft = DynamicsSpring(frequency: 2, dampingRatio: 0.4)  // two oscillations a second, bouncy
/// let stiff = DynamicsSpring(frequency: 8, dampingRatio: 1)   // quick, no overshoot
/// ```
public struct DynamicsSpring: Sendable, Hashable, CustomStringConvertible {
  /// The undamped natural frequency, in hertz. Zero means rigid.
  public var frequency: Double
  /// The damping ratio: 1 is critical damping, below 1 overshoots, above 1 creeps.
  public var dampingRatio: Double

  /// Creates a spring.
  ///
  /// Invalid values (a negative or non-finite frequency or damping ratio) are reported as
  /// diagnostics when the spring is used, and replaced: the frequency by zero (rigid), the
  /// damping ratio by 1.
  ///
  /// - Parameters:
  ///   - frequency: The natural frequency in hertz; zero for a rigid spring.
  ///   - dampingRatio: The damping ratio; 1 is critical.
  public init(frequency: Double, dampingRatio: Double) {
    self.frequency = frequency
    self.dampingRatio = dampingRatio
  }

  /// A rigid spring: the body follows its target exactly.
  public static let rigid = DynamicsSpring(frequency: 0, dampingRatio: 1)

  /// Whether the spring is rigid (frequency zero).
  public var isRigid: Bool { frequency == 0 }

  /// The angular frequency `ω = 2πf`, in radians per second.
  public var angularFrequency: Double { 2 * Double.pi * frequency }

  /// The frequency and damping ratio.
  public var description: String { "DynamicsSpring(\(frequency) Hz, ζ \(dampingRatio))" }

  /// The spring with invalid values replaced as documented, and what was wrong, if anything.
  func validated(_ context: String) -> DynamicsSpring {
    var spring = self
    if !frequency.isFinite || frequency < 0 {
      diagnose(
        "\(context): spring frequency \(frequency) Hz is not a finite value >= 0; using a rigid spring"
      )
      spring.frequency = 0
    }
    if !dampingRatio.isFinite || dampingRatio < 0 {
      diagnose(
        "\(context): damping ratio \(dampingRatio) is not a finite value >= 0; using 1 (critical)")
      spring.dampingRatio = 1
    }
    return spring
  }
}
