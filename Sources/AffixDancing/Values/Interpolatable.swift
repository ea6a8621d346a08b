public import Foundation

/// A value that can be blended between two instances, so that it can be animated.
///
/// An animation writes `interpolate(from:to:fraction:)` into a property on every frame.
/// `fraction` is 0 at the start value and 1 at the end value; timing curves with overshoot and
/// springs pass fractions outside `0...1`, which should extrapolate along the same line.
///
/// Adopting it for a type of your own takes one function:
///
/// ```swift
/// struct Temperature: Interpolatable {
///   var celsius: Double
///   static func interpolate(from start: Self, to end: Self, fraction: Double) -> Self {
///     Temperature(celsius: .interpolate(from: start.celsius, to: end.celsius, fraction: fraction))
///   }
/// }
/// ```
///
/// Values are `Sendable` because they are computed on the frame source's queue.
public protocol Interpolatable: Sendable {
  /// Returns the value `fraction` of the way from `start` to `end`.
  ///
  /// - Parameters:
  ///   - start: The value at fraction 0.
  ///   - end: The value at fraction 1.
  ///   - fraction: How far to go; values outside `0...1` extrapolate.
  static func interpolate(from start: Self, to end: Self, fraction: Double) -> Self
}

extension Double: Interpolatable {
  /// Blends linearly: `start + (end - start) * fraction`, exactly `end` at 1.
  ///
  /// Between endpoints whose difference overflows (-1e308 to 1e308) it blends as
  /// `start * (1 - fraction) + end * fraction`, which stays finite within `0...1`; past them an
  /// extrapolation is held at the largest finite values. Non-finite endpoints are the caller's.
  @inlinable
  public static func interpolate(from start: Double, to end: Double, fraction: Double) -> Double {
    if fraction == 1 { return end }
    let difference = end - start
    if difference.isFinite || !start.isFinite || !end.isFinite {
      return start + difference * fraction
    }
    let blend = start * (1 - fraction) + end * fraction
    return blend.isFinite ? blend : blend < 0 ? -greatestFiniteMagnitude : greatestFiniteMagnitude
  }
}

extension Float: Interpolatable {
  /// Blends linearly, as `Double.interpolate(from:to:fraction:)` does.
  ///
  /// It returns `start + (end - start) * fraction`, exactly `end` at 1, finite between finite
  /// endpoints.
  ///
  /// - Parameters:
  ///   - start: The value at fraction 0.
  ///   - end: The value at fraction 1.
  ///   - fraction: How far to go; values outside `0...1` extrapolate.
  /// - Returns: The value `fraction` of the way from `start` to `end`.
  @inlinable
  public static func interpolate(from start: Float, to end: Float, fraction: Double) -> Float {
    if fraction == 1 { return end }
    let blended = Double.interpolate(from: Double(start), to: Double(end), fraction: fraction)
    let limit = Double(Float.greatestFiniteMagnitude)
    guard start.isFinite && end.isFinite else { return Float(blended) }
    return Float(min(max(blended, -limit), limit))
  }
}

extension CGFloat: Interpolatable {
  /// Blends linearly, as `Double.interpolate(from:to:fraction:)` does.
  ///
  /// It returns `start + (end - start) * fraction`, exactly `end` at 1, finite between finite
  /// endpoints.
  ///
  /// - Parameters:
  ///   - start: The value at fraction 0.
  ///   - end: The value at fraction 1.
  ///   - fraction: How far to go; values outside `0...1` extrapolate.
  /// - Returns: The value `fraction` of the way from `start` to `end`.
  @inlinable
  public static func interpolate(from start: CGFloat, to end: CGFloat, fraction: Double) -> CGFloat
  {
    CGFloat(Double.interpolate(from: Double(start), to: Double(end), fraction: fraction))
  }
}
