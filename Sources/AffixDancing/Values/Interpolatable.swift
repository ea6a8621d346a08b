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
/// Values are `Sendable` because they are computed on the frame clock's queue.
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
  /// Blends linearly: `start + (end - start) * fraction`.
  @inlinable
  public static func interpolate(from start: Double, to end: Double, fraction: Double) -> Double {
    start + (end - start) * fraction
  }
}

extension Float: Interpolatable {
  /// Blends linearly: `start + (end - start) * fraction`.
  @inlinable
  public static func interpolate(from start: Float, to end: Float, fraction: Double) -> Float {
    start + (end - start) * Float(fraction)
  }
}

extension CGFloat: Interpolatable {
  /// Blends linearly: `start + (end - start) * fraction`.
  @inlinable
  public static func interpolate(from start: CGFloat, to end: CGFloat, fraction: Double) -> CGFloat
  {
    start + (end - start) * CGFloat(fraction)
  }
}
