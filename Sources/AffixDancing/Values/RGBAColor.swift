/// A colour as red, green, blue and alpha components, each nominally in `0...1`.
///
/// Colours blend component by component, which is what UIKit does for `backgroundColor`.
/// Components are not clamped, so a spring may overshoot them; clamp when you display.
///
/// ```swift
/// let mid = RGBAColor.interpolate(from: .red, to: .blue, fraction: 0.5)
/// // RGBAColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
/// ```
public struct RGBAColor: Interpolatable, Hashable, CustomStringConvertible {
  /// The red component.
  public var red: Double
  /// The green component.
  public var green: Double
  /// The blue component.
  public var blue: Double
  /// The opacity: 0 is transparent, 1 opaque.
  public var alpha: Double

  /// Creates a colour from its components.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Creates a grey of the given brightness.
  public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Opaque black.
  public static let black = RGBAColor(white: 0)
  /// Opaque white.
  public static let white = RGBAColor(white: 1)
  /// Fully transparent black.
  public static let clear = RGBAColor(white: 0, alpha: 0)
  /// Opaque pure red.
  public static let red = RGBAColor(red: 1, green: 0, blue: 0)
  /// Opaque pure green.
  public static let green = RGBAColor(red: 0, green: 1, blue: 0)
  /// Opaque pure blue.
  public static let blue = RGBAColor(red: 0, green: 0, blue: 1)

  /// Blends each component linearly.
  public static func interpolate(from start: RGBAColor, to end: RGBAColor, fraction: Double)
    -> RGBAColor
  {
    RGBAColor(
      red: .interpolate(from: start.red, to: end.red, fraction: fraction),
      green: .interpolate(from: start.green, to: end.green, fraction: fraction),
      blue: .interpolate(from: start.blue, to: end.blue, fraction: fraction),
      alpha: .interpolate(from: start.alpha, to: end.alpha, fraction: fraction))
  }

  /// The components, for logs.
  public var description: String {
    "RGBAColor(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))"
  }
}
