/// A timing curve from (0, 0) to (1, 1) shaped by two control points, as in UIKit and CSS.
///
/// The curve maps the fraction of time elapsed (x) to the fraction of the change made (y).
/// ``value(at:)`` solves x(t) = time for the curve parameter t (Newton's method, with a
/// bisection fallback where the slope is too flat), then returns y(t), within 1e-5 of the exact
/// curve. The control points' y may leave `0...1` for overshoot; their x is clamped to `0...1`
/// so that the curve stays a function of time.
///
/// ```swift
/// let ease = CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)  // CSS "ease"
/// ease.value(at: 0.5)  // 0.8024...
/// ```
public struct CubicBezier: Sendable, Hashable, CustomStringConvertible {
  /// The first control point's x, in `0...1`.
  public let x1: Double
  /// The first control point's y.
  public let y1: Double
  /// The second control point's x, in `0...1`.
  public let x2: Double
  /// The second control point's y.
  public let y2: Double

  /// Creates a curve from the coordinates of its two control points.
  ///
  /// Each x outside `0...1` is clamped into it (a non-finite one becomes the linear curve's
  /// value); a non-finite y becomes the linear curve's value, and one beyond ±1e300 is held
  /// there, where the curve stays finite.
  public init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.x1 = Self.clampedX(x1, fallback: 0)
    self.y1 = Self.heldY(y1, fallback: 0)
    self.x2 = Self.clampedX(x2, fallback: 1)
    self.y2 = Self.heldY(y2, fallback: 1)
  }

  /// The largest magnitude of a control point's `y`: the curve's polynomial adds up to 18
  /// times it, which must stay finite. Far beyond any curve that animates (a value 10^300
  /// times its distance from the start).
  package static let maximumY = 1e300

  /// `y` held within `maximumY`; `fallback` when it is not finite.
  private static func heldY(_ y: Double, fallback: Double) -> Double {
    y.isFinite ? min(max(y, -maximumY), maximumY) : fallback
  }

  /// Whether the control points were usable as given: x in `0...1`, everything finite.
  package static func isValid(x1: Double, y1: Double, x2: Double, y2: Double) -> Bool {
    (0...1).contains(x1) && (0...1).contains(x2) && abs(y1) <= maximumY && abs(y2) <= maximumY
  }

  // UIKit's presets are spelled `TimingCurve.easeInOut` and so on (`.bezier` gives the curve);
  // these are what that spelling stands for.

  /// UIKit's `.easeInOut`: slow at both ends.
  package static let easeInOut = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
  /// UIKit's `.easeIn`: slow at the start.
  package static let easeIn = CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
  /// UIKit's `.easeOut`: slow at the end.
  package static let easeOut = CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
  /// Constant speed.
  package static let linear = CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)
  /// CSS's `ease`, the web's default.
  public static let ease = CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

  /// Returns the fraction of the change made when `time` (a fraction of the duration) has
  /// elapsed. Times outside `0...1` are clamped.
  ///
  /// - Complexity: O(1): a few Newton steps, at most 47 bisection steps.
  public func value(at time: Double) -> Double {
    var cursor = Cursor(time: time)
    return value(at: time, cursor: &cursor)
  }

  /// Where a solve ended: the time, the curve parameter found for it and the inverse of the
  /// curve's slope in time there. The next solve starts from the parameter moved on by the
  /// change in time along that slope.
  package struct Cursor: Sendable {
    package var time: Double
    package var parameter: Double
    package var inverseSlope: Double

    /// A cursor that starts the solve at the parameter equal to `time`.
    package init(time: Double) {
      self.init(time: time, parameter: time, inverseSlope: 0)
    }

    init(time: Double, parameter: Double, inverseSlope: Double) {
      self.time = time
      self.parameter = parameter
      self.inverseSlope = inverseSlope
    }
  }

  /// The value at `time`, solving from `cursor`, which it leaves where this solve ended. An
  /// animation keeps one cursor: a frame's time is a small step on from the last, so Newton's
  /// method starts within a hair of the answer and one step usually settles it.
  @inline(__always)
  package func value(at time: Double, cursor: inout Cursor) -> Double {
    if time <= 0 || time.isNaN { return 0 }
    if time >= 1 { return 1 }
    solve(forX: time, from: &cursor)
    return y(cursor.parameter)
  }

  /// The point on the curve at parameter `t` in `0...1`, for plotting.
  public func point(atParameter t: Double) -> (x: Double, y: Double) {
    (x(t), y(t))
  }

  /// The control points, for logs.
  public var description: String { "CubicBezier(\(x1), \(y1), \(x2), \(y2))" }

  // Bernstein form, each coordinate as ((a t + b) t + c) t.
  private func x(_ t: Double) -> Double {
    ((1 + 3 * x1 - 3 * x2) * t + (3 * x2 - 6 * x1)) * t * t + 3 * x1 * t
  }

  private func y(_ t: Double) -> Double {
    ((1 + 3 * y1 - 3 * y2) * t + (3 * y2 - 6 * y1)) * t * t + 3 * y1 * t
  }

  private func slopeX(_ t: Double) -> Double {
    (3 * (1 + 3 * x1 - 3 * x2) * t + 2 * (3 * x2 - 6 * x1)) * t + 3 * x1
  }

  /// Moves `cursor` to the parameter t in `0...1` where x(t) = `target`, starting Newton's
  /// method where the cursor's slope predicts (or, outside `0...1`, at `target`).
  private func solve(forX target: Double, from cursor: inout Cursor) {
    let guess = cursor.parameter + (target - cursor.time) * cursor.inverseSlope
    var t = guess >= 0 && guess <= 1 ? guess : target
    for _ in 0..<8 {
      let slope = slopeX(t)
      // Near a flat spot x barely moves while y may not: leave it to bisection.
      if abs(slope) < 1e-6 { break }
      let step = (x(t) - target) / slope
      t -= step
      if !(t >= 0 && t <= 1) { break }
      // Newton's method squares the error each step: after a step under 1e-9, t is exact to
      // the last bits, whatever the start, so every caller gets the same value.
      if abs(step) < 1e-9 {
        cursor = Cursor(time: target, parameter: t, inverseSlope: 1 / slope)
        return
      }
    }
    // x(t) is non-decreasing on 0...1 because both control x lie in 0...1.
    var low = 0.0
    var high = 1.0
    while high - low > 1e-14 {
      let middle = (low + high) / 2
      if x(middle) < target { low = middle } else { high = middle }
    }
    cursor = Cursor(time: target, parameter: (low + high) / 2, inverseSlope: 0)
  }

  private static func clampedX(_ x: Double, fallback: Double) -> Double {
    x.isFinite ? min(max(x, 0), 1) : fallback
  }
}
