import AffixBenchTargets
import Foundation

extension PlotCommand {
  /// One benchmark ratio to draw: the range measured and the target, from
  /// `Docs/benchmark-targets.json`. A figure in another unit is drawn against its target.
  struct Ratio: Sendable {
    var figure: String
    var baseline: String
    var measured: ClosedRange<Double>
    /// The target, and whether the ratio must reach it (a speed-up) or stay under it.
    var target: Double
    var atLeast: Bool

    var meetsTarget: Bool {
      atLeast ? measured.lowerBound >= target : measured.upperBound <= target
    }

    init(_ entry: BenchmarkTarget, baseline: String) {
      figure = entry.figure
      self.baseline = baseline
      atLeast = entry.atLeast
      let range = entry.measuredRange
      if entry.unit == "x" {
        measured = range
        target = entry.target
      } else {
        measured = range.lowerBound / entry.target...range.upperBound / entry.target
        target = 1
      }
    }
  }

  /// The ratios the data file marks for the picture, in its order.
  static func ratios() throws -> [Ratio] {
    try BenchmarkTargets.load().compactMap { entry in
      entry.plot.map { Ratio(entry, baseline: $0) }
    }
  }

  /// Each ratio against its baseline, on a logarithmic axis.
  static func benchmarkPictures() throws -> [Picture] {
    [
      Picture(
        fileName: "benchmark-ratios.svg",
        caption: "each benchmark ratio against its baseline, with its target",
        chart: RatioChart(ratios: try ratios()))
    ]
  }
}

/// Horizontal bars of ratios on a logarithmic axis: the measured range of each, a mark at its
/// target, and the baseline (1x) as a line.
struct RatioChart: SVGDrawing {
  var ratios: [PlotCommand.Ratio]
  var range: ClosedRange<Double> = 0.01...100

  private let labelWidth = 330.0
  private let plotWidth = 440.0
  private let rowHeight = 34.0
  private let top = 70.0

  private func x(_ ratio: Double) -> Double {
    let span = log10(range.upperBound) - log10(range.lowerBound)
    let clamped = min(max(ratio, range.lowerBound), range.upperBound)
    return labelWidth + plotWidth * (log10(clamped) - log10(range.lowerBound)) / span
  }

  func svg() -> String {
    let width = labelWidth + plotWidth + 40
    let height = top + rowHeight * Double(ratios.count) + 70
    let bottom = top + rowHeight * Double(ratios.count)
    var elements: [SVGElement] = [
      SVGElement(
        "rect", [("width", svgNumber(width)), ("height", svgNumber(height)), ("fill", "white")]),
      SVGElement(
        "text",
        [("x", svgNumber(width / 2)), ("y", "28"), ("text-anchor", "middle"), ("font-size", "17")],
        text: "Benchmark ratios against their baselines (measured range, target mark)"),
    ]
    var tick = range.lowerBound
    while tick <= range.upperBound * 1.0001 {
      let position = x(tick)
      elements.append(
        SVGElement(
          "line",
          [
            ("x1", svgNumber(position)), ("y1", svgNumber(top - 10)),
            ("x2", svgNumber(position)), ("y2", svgNumber(bottom)),
            ("stroke", tick == 1 ? "#333333" : "#dddddd"),
            ("stroke-dasharray", tick == 1 ? "4 4" : "none"),
          ]))
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(position)), ("y", svgNumber(bottom + 18)), ("text-anchor", "middle"),
            ("font-size", "12"),
          ], text: "\(tick < 1 ? String(tick) : String(Int(tick)))x"))
      tick *= 10
    }
    elements.append(
      SVGElement(
        "text",
        [
          ("x", svgNumber(labelWidth + plotWidth / 2)), ("y", svgNumber(bottom + 40)),
          ("text-anchor", "middle"), ("font-size", "13"),
        ], text: "ratio to the baseline (log scale; 1x: as the baseline)"))
    for (index, ratio) in ratios.enumerated() {
      let middle = top + rowHeight * (Double(index) + 0.5)
      let colour = ratio.meetsTarget ? "#2ca02c" : "#d62728"
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(labelWidth - 10)), ("y", svgNumber(middle - 2)), ("text-anchor", "end"),
            ("font-size", "12"),
          ], text: ratio.figure))
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(labelWidth - 10)), ("y", svgNumber(middle + 12)),
            ("text-anchor", "end"),
            ("font-size", "10"), ("fill", "#666666"),
          ], text: "against " + ratio.baseline))
      // A range too narrow to see is drawn a few points wide.
      let (start, end) = (x(ratio.measured.lowerBound), x(ratio.measured.upperBound))
      elements.append(
        SVGElement(
          "polyline",
          [
            (
              "points",
              "\(svgNumber(start - 2)),\(svgNumber(middle)) \(svgNumber(max(end, start + 2) + 2)),\(svgNumber(middle))"
            ),
            ("fill", "none"), ("stroke", colour), ("stroke-width", "12"),
          ]))
      let target = x(ratio.target)
      elements.append(
        SVGElement(
          "polyline",
          [
            (
              "points",
              "\(svgNumber(target)),\(svgNumber(middle - 11)) \(svgNumber(target)),\(svgNumber(middle + 11))"
            ),
            ("fill", "none"), ("stroke", "#333333"), ("stroke-width", "2.5"),
          ]))
      elements.append(
        SVGElement(
          "text",
          [("x", svgNumber(target + 5)), ("y", svgNumber(middle - 8)), ("font-size", "10")],
          text: (ratio.atLeast ? "≥ " : "≤ ") + svgNumber(ratio.target) + "x"))
    }
    let root = SVGElement(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("width", svgNumber(width)),
        ("height", svgNumber(height)), ("viewBox", "0 0 \(svgNumber(width)) \(svgNumber(height))"),
        ("font-family", "Helvetica, Arial, sans-serif"),
      ],
      children: [SVGElement("title", text: "Benchmark ratios")] + elements)
    return SVGElement.document(root)
  }
}
