import AffixDraggable
import Foundation

extension PlotCommand {
  /// A drag recorded from the real mixin on virtual time: the path of the object and of the
  /// finger, and the object's distance from its snap point over time.
  static func dragPictures() -> [Picture] {
    let trajectory = DragTrajectory.record()
    let samples = trajectory.samples
    guard let first = samples.first, let last = samples.last else { return [] }
    let snap = trajectory.snapPoint
    let card = samples.map { (x: Double($0.position.x), y: Double($0.position.y)) }
    let finger = samples.compactMap { sample in
      sample.finger.map { (x: Double($0.x), y: Double($0.y)) }
    }
    let released = samples.last { $0.phase == .dragging } ?? first
    let xs = card.map(\.x) + finger.map(\.x) + [Double(snap.x)]
    let ys = card.map(\.y) + finger.map(\.y) + [Double(snap.y)]
    var path = Chart(
      title: "Drag and snap: the object follows the finger, then springs home",
      xLabel: "x (points)", yLabel: "y (points, down)",
      xRange: padded(xs.min() ?? 0, xs.max() ?? 1),
      yRange: padded(ys.min() ?? 0, ys.max() ?? 1))
    path.yPointsDown = true
    path.width = 760
    path.height = 520
    path.series = [
      Chart.Series(name: "object's centre", points: card, colour: Chart.palette[0]),
      Chart.Series(name: "finger", points: finger, colour: Chart.palette[1], dashed: true),
    ]
    path.markers = [
      Chart.Marker(label: "snap point", point: (Double(snap.x), Double(snap.y))),
      Chart.Marker(
        label: "released with a fling",
        point: (Double(released.position.x), Double(released.position.y)),
        colour: Chart.palette[1]),
    ]

    let distances = samples.map { sample in
      let dx = Double(sample.position.x - snap.x)
      let dy = Double(sample.position.y - snap.y)
      return (x: sample.time, y: (dx * dx + dy * dy).squareRoot())
    }
    var settling = Chart(
      title: "Drag and snap: distance from the snap point over time", xLabel: "time (s)",
      yLabel: "distance (points)", xRange: 0...max(last.time, 0.1),
      yRange: 0...((distances.map(\.y).max() ?? 1) * 1.1))
    settling.series = [
      Chart.Series(
        name: "dragging", points: distances.filter { $0.x <= released.time },
        colour: Chart.palette[1]),
      Chart.Series(
        name: "snapping back", points: distances.filter { $0.x >= released.time },
        colour: Chart.palette[0]),
    ]
    settling.markers = [
      Chart.Marker(
        label: "released", point: (released.time, distances.first { $0.x == released.time }?.y ?? 0)
      )
    ]
    return [
      Picture(
        fileName: "draggable-trajectory.svg",
        caption: "a drag grabbed off-centre, a fling, and the snap back (damping 0.5)",
        chart: path),
      Picture(
        fileName: "draggable-distance.svg",
        caption: "the same drag: distance from the snap point over time", chart: settling),
      rubberBandPicture(),
    ]
  }

  /// The rubber band's curve from the library itself: how far past an edge the object shows
  /// for how far past it the finger is, both in units of the dimension `d`, for UIKit's
  /// coefficient and two others.
  static func rubberBandPicture() -> Picture {
    let overshoots = (0...120).map { Double($0) / 40 }
    func curve(_ coefficient: Double) -> [(x: Double, y: Double)] {
      let band = RubberBand(coefficient: coefficient)
      return overshoots.map { ($0, band.offset(forOvershoot: $0, dimension: 1)) }
    }
    var chart = Chart(
      title: "Rubber band: offset past the edge = (1 - 1 / (x c / d + 1)) d",
      xLabel: "finger past the edge, x / d", yLabel: "object past the edge / d",
      xRange: 0...3, yRange: 0...1.1)
    chart.guides = [1]
    chart.series = [
      Chart.Series(
        name: "no resistance", points: [(0, 0), (1.1, 1.1)], colour: "#999999", dashed: true),
      Chart.Series(name: "c = 0.55 (UIKit)", points: curve(0.55), colour: Chart.palette[0]),
      Chart.Series(name: "c = 0.3, stiffer", points: curve(0.3), colour: Chart.palette[1]),
      Chart.Series(name: "c = 1, looser", points: curve(1), colour: Chart.palette[2]),
    ]
    let oneDimension = RubberBand.standard.offset(forOvershoot: 1, dimension: 1)
    chart.markers = [
      Chart.Marker(
        label: "x = d: \(String(format: "%.2f", oneDimension)) d", point: (1, oneDimension),
        colour: Chart.palette[0]),
      Chart.Marker(label: "d: approached, never reached", point: (1.5, 1)),
    ]
    return Picture(
      fileName: "draggable-rubber-band.svg",
      caption: "the rubber band: how far past an edge a dragged object shows (c = 0.55 as UIKit)",
      chart: chart)
  }

  private static func padded(_ low: Double, _ high: Double) -> ClosedRange<Double> {
    let margin = max((high - low) * 0.08, 1)
    return (low - margin)...(high + margin)
  }
}
