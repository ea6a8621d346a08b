/// When a body counts as at rest: close enough to where its behaviour holds it, and slow
/// enough, that no later motion would show.
///
/// A body at rest is placed exactly on its target and stops stepping; a world whose bodies are
/// all at rest needs no frames.
public struct RestThreshold: Sendable, Hashable {
  /// The largest distance from the target, in points.
  public var distance: Double
  /// The largest speed, in points per second.
  public var speed: Double

  /// Creates a threshold. Negative or non-finite values are treated as zero.
  public init(distance: Double, speed: Double) {
    self.distance = distance.isFinite ? max(distance, 0) : 0
    self.speed = speed.isFinite ? max(speed, 0) : 0
  }

  /// A twentieth of a point and half a point per second: below what a screen shows.
  public static let standard = RestThreshold(distance: 0.05, speed: 0.5)
}
