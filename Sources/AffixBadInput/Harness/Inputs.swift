import Foundation

/// One bad input: a label for the case's name and the value.
struct Input<Value: Sendable>: Sendable {
  let label: String
  let value: Value
  let family: Family

  init(_ label: String, _ value: Value, _ family: Family) {
    self.label = label
    self.value = value
    self.family = family
  }
}

/// What kind of bad an input is, for the entry points that promise a report for some kinds.
enum Family: Hashable, Sendable {
  /// NaN or an infinity.
  case nonFinite
  /// Below zero.
  case negative
  case zero
  /// Positive and far below any usable size.
  case tiny
  /// Finite and far above any usable size.
  case huge
}

extension Family {
  /// Everything but the finite extremes: what "not finite, or not positive" promises cover.
  static let nonPositive: Set<Self> = [.nonFinite, .negative, .zero]
  static let all: Set<Self> = [.nonFinite, .negative, .zero, .tiny, .huge]
}

/// The tables the cases are made from: inputs × entry points.
enum Inputs {
  static let doubles: [Input<Double>] = [
    Input("nan", .nan, .nonFinite),
    Input("+inf", .infinity, .nonFinite),
    Input("-1", -1, .negative),
    Input("zero", 0, .zero),
    Input("1e-300", 1e-300, .tiny),
    Input("1e308", 1e308, .huge),
  ]

  /// The smaller set, for entry points crossed with a second table.
  static let someDoubles: [Input<Double>] = doubles.filter {
    ["nan", "+inf", "-1", "zero", "1e-300", "1e308"].contains($0.label)
  }

  /// Every double the sweeps of pure functions take: the table and its rarer members.
  static let allDoubles: [Input<Double>] =
    doubles + [
      Input("signalingNaN", .signalingNaN, .nonFinite), Input("-0", -0.0, .zero),
      Input("subnormal", .leastNonzeroMagnitude, .tiny), Input("-inf", -.infinity, .nonFinite),
      Input("-1e308", -1e308, .negative),
      Input("greatestFinite", .greatestFiniteMagnitude, .huge),
    ]

  static let largest = Duration(
    secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999)
  static let smallest = Duration(
    secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999)

  static let durations: [Input<Duration>] = [
    Input("durationMin", smallest, .negative),
    Input("-1s", .seconds(-1), .negative),
    Input("zero", .zero, .zero),
    Input("1as", Duration(secondsComponent: 0, attosecondsComponent: 1), .tiny),
    Input("300years", .seconds(9_467_280_000), .huge),
    Input("Int64.max s", .seconds(Int64.max), .huge),
    Input("durationMax", largest, .huge),
  ]

  static let someDurations: [Input<Duration>] = durations.filter {
    ["durationMin", "zero", "1as", "durationMax"].contains($0.label)
  }

  /// Every duration the sweeps take: the table and its rarer members.
  static let allDurations: [Input<Duration>] =
    durations + [
      Input("-1as", Duration(secondsComponent: 0, attosecondsComponent: -1), .negative),
      Input("1ns", .nanoseconds(1), .tiny), Input("1e6s", .seconds(1_000_000), .huge),
    ]

  static let ints: [Input<Int>] = [
    Input("Int.min", .min, .negative),
    Input("-1", -1, .negative),
    Input("zero", 0, .zero),
    Input("Int.max", .max, .huge),
    Input("Int.max-1", .max - 1, .huge),
  ]

  static let points: [Input<CGPoint>] = [
    Input("nanX", CGPoint(x: CGFloat.nan, y: 0), .nonFinite),
    Input("infY", CGPoint(x: 0, y: CGFloat.infinity), .nonFinite),
    Input("1e308", CGPoint(x: 1e308, y: -1e308), .huge),
    Input("greatestFinite", CGPoint(x: CGFloat.greatestFiniteMagnitude, y: 0), .huge),
    Input("1e-300", CGPoint(x: 1e-300, y: 1e-300), .tiny),
  ]

  static let rects: [Input<CGRect>] = [
    Input("nanOrigin", CGRect(x: CGFloat.nan, y: 0, width: 100, height: 100), .nonFinite),
    Input("infSize", CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 100), .nonFinite),
    Input("negativeSize", CGRect(x: 0, y: 0, width: -100, height: -100), .negative),
    Input("zeroSize", CGRect(x: 50, y: 50, width: 0, height: 0), .zero),
    Input("1e308", CGRect(x: -1e308, y: -1e308, width: 1e308, height: 1e308), .huge),
    Input(
      "greatestWidth", CGRect(x: 0, y: 0, width: CGFloat.greatestFiniteMagnitude, height: 1), .huge),
  ]
}

extension Probe {
  func finite(_ point: CGPoint, _ detail: @autoclosure () -> String) {
    finite([Double(point.x), Double(point.y)], detail())
  }
}

extension Double {
  /// Within `range`, and finite.
  func isWithin(_ range: ClosedRange<Double>) -> Bool { isFinite && range.contains(self) }
}

extension CGRect {
  var coordinates: [Double] {
    [Double(origin.x), Double(origin.y), Double(size.width), Double(size.height)]
  }
}
