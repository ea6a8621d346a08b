/// The four standard timing curves, as in `UIView.AnimationCurve`.
public enum TimingCurve: Sendable, Hashable, CaseIterable {
  /// Slow at both ends (0.42, 0, 0.58, 1).
  case easeInOut
  /// Slow at the start (0.42, 0, 1, 1).
  case easeIn
  /// Slow at the end (0, 0, 0.58, 1).
  case easeOut
  /// Constant speed.
  case linear

  /// The Bezier curve this preset stands for.
  public var bezier: CubicBezier {
    switch self {
    case .easeInOut: .easeInOut
    case .easeIn: .easeIn
    case .easeOut: .easeOut
    case .linear: .linear
    }
  }
}
