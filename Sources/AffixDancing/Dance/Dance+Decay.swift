public import AffixMotion
import AffixScheduling
public import Foundation

extension Dance {
  /// Creates a momentum animation of `property`, which slows down as a scroll view does after
  /// a flick.
  ///
  /// It leaves at `velocity` and slows down at `rate`, coming to rest at
  /// `start + velocity / 1000 * r / (1 - r)` (``Decay/projectedDistance``). It waits for
  /// `start()`, like every animation, and has the same states, completions and `ended()`.
  ///
  /// ```swift
  /// let landing = card.x + Decay(velocity: flingVelocity).projectedDistance  // known now
  /// card.dance.decay(\.x, velocity: flingVelocity, rate: .normal)
  ///   .addCompletion { _ in print("at rest at \(landing)") }
  ///   .start()
  /// ```
  ///
  /// The property follows `x(t) = x0 + d (1 - r^(1000 t))` (see ``Decay``) until it is within
  /// ``Decay/restThreshold`` of its resting value, then is placed there and the animation
  /// completes. Its start is read when it starts, and its resting value moves with it.
  ///
  /// - Parameters:
  ///   - property: The property to move; any floating-point type.
  ///   - velocity: In the property's units per second; one that is not finite is reported and
  ///     taken as 0 (nothing moves).
  ///   - rate: The fraction of the velocity kept each millisecond.
  ///   - isolation: Where the host lives, and its property is written; the caller's unless
  ///     given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: A handle to the new animation.
  @discardableResult
  public func decay<Value: BinaryFloatingPoint & Interpolatable>(
    _ property: ReferenceWritableKeyPath<Host, Value>, velocity: Double,
    rate: DecelerationRate = .normal, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    let distance = projected(checked(velocity, at: site), rate: rate, at: site)
    return decay(distances: [distance], rate: rate, isolation: isolation, at: site) { host in
      let start = host[keyPath: property]
      return AnimationTrack(
        PropertyAccess(property), from: start, to: start + Value(distance), keepsDistance: true)
    }
  }

  /// Creates a momentum animation of a point-valued `property`, such as a position after a
  /// fling.
  ///
  /// Each coordinate decays from its component of `velocity` at the same `rate`, so the point
  /// glides along a straight line to rest.
  ///
  /// ```swift
  /// card.dance.decay(\.center, velocity: CGPoint(x: 900, y: -400)).start()
  /// ```
  ///
  /// - Parameters:
  ///   - property: The point to move.
  ///   - velocity: In points per second; components that are not finite are reported and
  ///     taken as 0.
  ///   - rate: The fraction of the velocity kept each millisecond.
  ///   - isolation: Where the host lives, and its property is written; the caller's unless
  ///     given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: A handle to the new animation.
  @discardableResult
  public func decay(
    _ property: ReferenceWritableKeyPath<Host, CGPoint>, velocity: CGPoint,
    rate: DecelerationRate = .normal, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    let distance = CGPoint(
      x: projected(checked(Double(velocity.x), at: site), rate: rate, at: site),
      y: projected(checked(Double(velocity.y), at: site), rate: rate, at: site))
    return decay(
      distances: [Double(distance.x), Double(distance.y)], rate: rate, isolation: isolation,
      at: site
    ) { host in
      let start = host[keyPath: property]
      let end = CGPoint(x: start.x + distance.x, y: start.y + distance.y)
      return AnimationTrack(PropertyAccess(property), from: start, to: end, keepsDistance: true)
    }
  }

  /// Installs a decay whose values move `distances` at most: it lasts until the longest comes
  /// within the rest threshold.
  private func decay(
    distances: [Double], rate: DecelerationRate, isolation: (any Actor)?, at site: CallSite,
    track: @escaping (Host) -> AnimationTrack
  ) -> Dance<Host> {
    guard let isolation, dancer.admits(isolation, "decay", group: group, at: site) else {
      if isolation == nil { dancer.refuse("decay", group: group, at: site) }
      return self
    }
    let duration =
      distances.map {
        Decay.restingTime(distance: $0, rate: rate, threshold: Decay.restThreshold)
      }.max() ?? 0
    let declared = dancer.animate(
      duration: duration, timing: .decay(rate), isolation: isolation, at: site
    ) { object in
      guard let host = object as? Host else { return [] }
      return [track(host)]
    }
    return declared.map { Dance(dancer: dancer, group: .id($0)) } ?? self
  }

  /// The distance a glide from `velocity` covers; one held at the longest projection is
  /// reported, with where it comes to rest and when.
  private func projected(_ velocity: Double, rate: DecelerationRate, at site: CallSite) -> Double {
    let distance = Decay.projectedDistance(velocity: velocity, rate: rate)
    if rate.holdsProjection(of: velocity) {
      let time = Decay.restingTime(distance: distance, rate: rate, threshold: Decay.restThreshold)
      dancer.report(
        "decay: a velocity of \(velocity) at \(rate) glides beyond "
          + "\(DecelerationRate.maximumProjection); it glides \(distance) instead and comes to "
          + "rest after \(time) s", group: group, at: site)
    }
    return distance
  }

  private func checked(_ velocity: Double, at site: CallSite) -> Double {
    guard velocity.isFinite else {
      dancer.report("decay: velocity \(velocity) is not finite; using 0", group: group, at: site)
      return 0
    }
    return velocity
  }
}
