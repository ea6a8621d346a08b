/// A line chart: curves in a data space drawn into an SVG picture with axes, a grid, a legend
/// and labelled markers. Written for the demo's pictures, with no dependencies.
struct Chart: Sendable {
  /// One curve.
  struct Series: Sendable {
    var name: String
    var points: [(x: Double, y: Double)]
    var colour: String
    var dashed = false
  }

  /// A labelled point, such as where a drag was released.
  struct Marker: Sendable {
    var label: String
    var point: (x: Double, y: Double)
    var colour: String = "#333333"
  }

  var title: String
  var xLabel: String
  var yLabel: String
  var xRange: ClosedRange<Double>
  var yRange: ClosedRange<Double>
  var series: [Series] = []
  var markers: [Marker] = []
  /// Reference lines across the plot at these y values (the 0 and 1 of a timing curve).
  var guides: [Double] = []
  /// y grows downwards, as on a screen: for trajectories in screen coordinates.
  var yPointsDown = false
  var width = 640.0
  var height = 420.0

  static let palette = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
  ]

  private var plotArea: (left: Double, top: Double, right: Double, bottom: Double) {
    (left: 64, top: 48, right: width - 170, bottom: height - 52)
  }

  private func place(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
    let area = plotArea
    let xSpan = xRange.upperBound - xRange.lowerBound
    let ySpan = yRange.upperBound - yRange.lowerBound
    let xFraction = xSpan > 0 ? (point.x - xRange.lowerBound) / xSpan : 0
    var yFraction = ySpan > 0 ? (point.y - yRange.lowerBound) / ySpan : 0
    if !yPointsDown { yFraction = 1 - yFraction }
    return (
      area.left + xFraction * (area.right - area.left),
      area.top + yFraction * (area.bottom - area.top)
    )
  }

  /// The chart as a complete SVG document.
  func svg() -> String {
    var elements: [SVGElement] = [
      SVGElement(
        "rect", [("width", svgNumber(width)), ("height", svgNumber(height)), ("fill", "white")]),
      SVGElement(
        "text",
        [("x", svgNumber(width / 2)), ("y", "28"), ("text-anchor", "middle"), ("font-size", "17")],
        text: title),
    ]
    elements += axes()
    for value in guides {
      let start = place((xRange.lowerBound, value))
      let end = place((xRange.upperBound, value))
      elements.append(
        SVGElement(
          "line",
          [
            ("x1", svgNumber(start.x)), ("y1", svgNumber(start.y)), ("x2", svgNumber(end.x)),
            ("y2", svgNumber(end.y)), ("stroke", "#999999"), ("stroke-dasharray", "4 4"),
          ]))
    }
    for series in series {
      let points = series.points.map(place).map { "\(svgNumber($0.x)),\(svgNumber($0.y))" }
      var attributes = [
        ("points", points.joined(separator: " ")), ("fill", "none"), ("stroke", series.colour),
        ("stroke-width", "2.2"), ("stroke-linejoin", "round"),
      ]
      if series.dashed { attributes.append(("stroke-dasharray", "7 5")) }
      elements.append(SVGElement("polyline", attributes))
    }
    for marker in markers {
      let spot = place(marker.point)
      elements.append(
        SVGElement(
          "circle",
          [
            ("cx", svgNumber(spot.x)), ("cy", svgNumber(spot.y)), ("r", "4.5"),
            ("fill", marker.colour),
          ]
        ))
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(spot.x + 8)), ("y", svgNumber(spot.y - 8)), ("font-size", "12"),
            ("fill", marker.colour),
          ], text: marker.label))
    }
    elements += legend()
    let root = SVGElement(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("width", svgNumber(width)),
        ("height", svgNumber(height)), ("viewBox", "0 0 \(svgNumber(width)) \(svgNumber(height))"),
        ("font-family", "Helvetica, Arial, sans-serif"),
      ],
      children: [SVGElement("title", text: title)] + elements)
    return SVGElement.document(root)
  }

  private func axes() -> [SVGElement] {
    let area = plotArea
    var elements: [SVGElement] = [
      SVGElement(
        "rect",
        [
          ("x", svgNumber(area.left)), ("y", svgNumber(area.top)),
          ("width", svgNumber(area.right - area.left)),
          ("height", svgNumber(area.bottom - area.top)), ("fill", "none"), ("stroke", "#444444"),
        ])
    ]
    for tick in Self.ticks(xRange) {
      let spot = place((tick, yPointsDown ? yRange.upperBound : yRange.lowerBound))
      elements.append(gridLine(from: (spot.x, area.top), to: (spot.x, area.bottom)))
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(spot.x)), ("y", svgNumber(area.bottom + 16)),
            ("text-anchor", "middle"), ("font-size", "11"),
          ], text: Self.label(tick)))
    }
    for tick in Self.ticks(yRange) {
      let spot = place((xRange.lowerBound, tick))
      elements.append(gridLine(from: (area.left, spot.y), to: (area.right, spot.y)))
      elements.append(
        SVGElement(
          "text",
          [
            ("x", svgNumber(area.left - 6)), ("y", svgNumber(spot.y + 4)), ("text-anchor", "end"),
            ("font-size", "11"),
          ], text: Self.label(tick)))
    }
    elements.append(
      SVGElement(
        "text",
        [
          ("x", svgNumber((area.left + area.right) / 2)), ("y", svgNumber(height - 14)),
          ("text-anchor", "middle"), ("font-size", "13"),
        ], text: xLabel))
    let middle = svgNumber((area.top + area.bottom) / 2)
    elements.append(
      SVGElement(
        "text",
        [
          ("x", "18"), ("y", middle), ("text-anchor", "middle"), ("font-size", "13"),
          ("transform", "rotate(-90 18 \(middle))"),
        ], text: yLabel))
    return elements
  }

  private func gridLine(from start: (Double, Double), to end: (Double, Double)) -> SVGElement {
    SVGElement(
      "line",
      [
        ("x1", svgNumber(start.0)), ("y1", svgNumber(start.1)), ("x2", svgNumber(end.0)),
        ("y2", svgNumber(end.1)), ("stroke", "#e4e4e4"),
      ])
  }

  private func legend() -> [SVGElement] {
    let left = plotArea.right + 16
    var elements: [SVGElement] = []
    for (index, series) in series.enumerated() {
      let y = plotArea.top + 8 + Double(index) * 22
      var line = [
        ("x1", svgNumber(left)), ("y1", svgNumber(y)), ("x2", svgNumber(left + 24)),
        ("y2", svgNumber(y)), ("stroke", series.colour), ("stroke-width", "2.5"),
      ]
      if series.dashed { line.append(("stroke-dasharray", "7 5")) }
      elements.append(SVGElement("line", line))
      elements.append(
        SVGElement(
          "text", [("x", svgNumber(left + 30)), ("y", svgNumber(y + 4)), ("font-size", "12")],
          text: series.name))
    }
    return elements
  }

  /// About five round values across `range`.
  static func ticks(_ range: ClosedRange<Double>) -> [Double] {
    let span = range.upperBound - range.lowerBound
    guard span > 0, span.isFinite else { return [range.lowerBound] }
    let rough = span / 5
    var magnitude = 1.0
    while magnitude * 10 <= rough { magnitude *= 10 }
    while magnitude > rough { magnitude /= 10 }
    let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
    var tick = (range.lowerBound / step).rounded(.up) * step
    var ticks: [Double] = []
    while tick <= range.upperBound + step * 1e-9 {
      ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
      tick += step
    }
    return ticks
  }

  private static func label(_ value: Double) -> String {
    svgNumber(value)
  }
}
