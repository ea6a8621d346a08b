public import Foundation

extension CGPoint: Interpolatable {
  /// Blends each coordinate linearly.
  @inlinable
  public static func interpolate(from start: CGPoint, to end: CGPoint, fraction: Double) -> CGPoint
  {
    CGPoint(
      x: .interpolate(from: start.x, to: end.x, fraction: fraction),
      y: .interpolate(from: start.y, to: end.y, fraction: fraction))
  }
}

extension CGSize: Interpolatable {
  /// Blends width and height linearly.
  @inlinable
  public static func interpolate(from start: CGSize, to end: CGSize, fraction: Double) -> CGSize {
    CGSize(
      width: .interpolate(from: start.width, to: end.width, fraction: fraction),
      height: .interpolate(from: start.height, to: end.height, fraction: fraction))
  }
}

extension CGRect: Interpolatable {
  /// Blends origin and size linearly, as UIKit animates a frame.
  @inlinable
  public static func interpolate(from start: CGRect, to end: CGRect, fraction: Double) -> CGRect {
    CGRect(
      origin: .interpolate(from: start.origin, to: end.origin, fraction: fraction),
      size: .interpolate(from: start.size, to: end.size, fraction: fraction))
  }
}
