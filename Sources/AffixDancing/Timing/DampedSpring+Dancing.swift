import AffixMotion
import AffixScheduling

extension DampedSpring {
  /// A spring of mass 1 from its damping ratio and natural frequency in radians per second:
  /// how the fitted springs of `TimingParameters` are built.
  init(dampingRatio: Double, naturalFrequency: Double, initialVelocity: Double = 0) {
    let frequency = naturalFrequency.isFinite && naturalFrequency > 0 ? naturalFrequency : 1
    self.init(
      mass: 1, stiffness: frequency * frequency,
      damping: 2 * (dampingRatio.isFinite ? dampingRatio : 1) * frequency,
      initialVelocity: initialVelocity)
  }
}
