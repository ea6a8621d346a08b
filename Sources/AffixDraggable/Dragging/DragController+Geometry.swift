import Foundation

/// Where a snap point or a fling may go: inside the bounds, within the world, the nearest.
extension DragController {
  /// `point`, or the nearest point of `bounds` when it lies outside them, reported: a point
  /// the centre can never reach, since it may not leave the bounds. Bounds of zero width or
  /// height are a track or a single point, and every snap point is taken onto it.
  static func reachable(
    _ point: CGPoint, in bounds: CGRect?, at site: ReportSite? = nil
  ) -> CGPoint {
    guard let bounds else { return point }
    let held = CGPoint(
      x: min(max(point.x, bounds.minX), bounds.maxX),
      y: min(max(point.y, bounds.minY), bounds.maxY))
    guard held != point else { return point }
    diagnose(
      "snap point \(point) is outside the bounds \(bounds), which the centre may not leave; "
        + "it rests at \(held), the nearest point inside, instead", at: site)
    return held
  }

  /// `point` held within `±bound` in each coordinate, or `nil` when it is within already.
  static func held(_ point: CGPoint, within bound: Double) -> CGPoint? {
    let x = min(max(Double(point.x), -bound), bound)
    let y = min(max(Double(point.y), -bound), bound)
    guard x != Double(point.x) || y != Double(point.y) else { return nil }
    return CGPoint(x: x, y: y)
  }

  /// The point of `points` (not empty) nearest `target`; the first of equally near ones.
  static func nearest(to target: CGPoint, in points: [CGPoint]) -> CGPoint {
    var best = points[0]
    var bestDistance = best.distance(to: target)
    for point in points.dropFirst() {
      let distance = point.distance(to: target)
      if distance < bestDistance { (best, bestDistance) = (point, distance) }
    }
    return best
  }
}
