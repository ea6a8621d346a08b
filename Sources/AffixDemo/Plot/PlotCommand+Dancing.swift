import AffixDancing

extension PlotCommand {
  /// The Bezier presets with a custom curve, and springs of several damping ratios, computed
  /// by AffixDancing's own timing code: the pictures show what an animation does.
  static func timingCurvePictures() -> [Picture] {
    let samples = (0...200).map { Double($0) / 200 }
    let back = CubicBezier(x1: 0.68, y1: -0.55, x2: 0.27, y2: 1.55)
    let curves: [(String, CubicBezier, Bool)] = [
      ("easeInOut", .easeInOut, false),
      ("easeIn", .easeIn, false),
      ("easeOut", .easeOut, false),
      ("linear", .linear, false),
      ("ease (CSS)", .ease, true),
      ("custom (0.68, -0.55, 0.27, 1.55)", back, true),
    ]
    var bezier = Chart(
      title: "Timing curves: progress against time", xLabel: "time (fraction of the duration)",
      yLabel: "progress", xRange: 0...1, yRange: -0.3...1.3)
    bezier.guides = [0, 1]
    bezier.width = 760
    for (index, (name, curve, dashed)) in curves.enumerated() {
      bezier.series.append(
        Chart.Series(
          name: name, points: samples.map { ($0, curve.value(at: $0)) },
          colour: Chart.palette[index % Chart.palette.count], dashed: dashed))
    }

    let ratios = [0.2, 0.4, 0.7, 1.0, 2.0]
    let times = (0...300).map { Double($0) / 100 }
    var springs = Chart(
      title: "Springs at 1 Hz by damping ratio", xLabel: "time (s)", yLabel: "progress",
      xRange: 0...3, yRange: 0...1.6)
    springs.guides = [1]
    for (index, ratio) in ratios.enumerated() {
      let spring = Spring(dampingRatio: ratio, naturalFrequency: 2 * Double.pi)
      springs.series.append(
        Chart.Series(
          name: "dampingRatio \(ratio)" + (ratio == 1 ? " (critical)" : ""),
          points: times.map { ($0, spring.value(at: $0)) },
          colour: Chart.palette[index % Chart.palette.count]))
    }
    return [
      Picture(
        fileName: "timing-curves.svg",
        caption: "UIKit's four curves, CSS ease and a custom Bezier that overshoots",
        chart: bezier),
      Picture(
        fileName: "springs.svg",
        caption: "springs of damping ratio 0.2 to 2 at the same stiffness", chart: springs),
    ]
  }
}
