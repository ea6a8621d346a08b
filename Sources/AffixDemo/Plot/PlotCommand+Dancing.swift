import AffixDancing
import AffixMotion
import AffixScheduling
import Foundation

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
      let spring = DampedSpring(frequency: 1, dampingRatio: ratio)
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

  /// A spring interrupted on its way and sent elsewhere: the position and velocity that
  /// AffixDancing writes, sampled every 5 ms of virtual time, against what starting the new
  /// spring from rest would have drawn.
  static func retargetingPictures() -> [Picture] {
    let retargetTime = 0.15
    let run = RetargetRun(retargetAt: retargetTime)
    var position = Chart(
      title: "A spring retargeted at 0.15 s keeps its velocity", xLabel: "time (s)",
      yLabel: "x", xRange: 0...1.2, yRange: -10...110)
    position.guides = [100, 30]
    position.series = [
      Chart.Series(
        name: "retargeted (velocity kept)", points: run.positions, colour: Chart.palette[0]),
      Chart.Series(
        name: "retargeted from rest", points: run.fromRest.positions, colour: Chart.palette[1],
        dashed: true),
      Chart.Series(
        name: "not interrupted", points: run.uninterrupted, colour: Chart.palette[3],
        dashed: true),
    ]
    position.markers = [Chart.Marker(label: "retarget to 30", point: run.retargetPoint)]
    var velocity = Chart(
      title: "Velocity through the retarget", xLabel: "time (s)", yLabel: "velocity (x per s)",
      xRange: 0...1.2, yRange: -800...800)
    velocity.guides = [0]
    velocity.series = [
      Chart.Series(name: "velocity kept", points: run.velocities, colour: Chart.palette[0]),
      Chart.Series(
        name: "from rest: a kink", points: run.fromRest.velocities, colour: Chart.palette[1],
        dashed: true),
    ]
    velocity.markers = [
      Chart.Marker(label: "retarget", point: (retargetTime, run.retargetVelocity))
    ]
    return [
      Picture(
        fileName: "retargeting.svg",
        caption: "a snappy spring to 100 retargeted to 30 with a bouncy one, velocity kept",
        chart: position),
      Picture(
        fileName: "retargeting-velocity.svg",
        caption: "its velocity runs on through the retarget; from rest it would drop to 0",
        chart: velocity),
    ]
  }

  /// Two groups on one host, as AffixDancing animates them on a virtual clock at 200 frames a
  /// second: a position on a spring and, declared 0.3 s later, an opacity on a curve. The
  /// position runs on; before groups, the fade froze it where it stood.
  static func independentGroupsPictures() -> [Picture] {
    let fadeTime = 0.3
    let end = 1.2
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 200)
    let body = PlottedBody()
    let dance = Dance.of(body, frames: clock)
    dance.animate(spring: .smooth) { $0.x = 100 }.start()
    var position = [(x: 0.0, y: body.x / 100)]
    var opacity = [(x: 0.0, y: body.opacity)]
    var frozen = position
    let fadeFrame = Int((fadeTime * 200).rounded())
    for frame in 1...Int(end * 200) {
      if frame == fadeFrame + 1 {
        dance.animate(duration: 0.6, curve: .easeInOut) { $0.opacity = 0 }.start()
      }
      scheduler.advance(by: .milliseconds(5))
      let time = Double(frame) / 200
      position.append((time, body.x / 100))
      opacity.append((time, body.opacity))
      frozen.append((time, frame <= fadeFrame ? body.x / 100 : frozen[fadeFrame].y))
    }
    var chart = Chart(
      title: "Two groups: a spring and a fade declared mid-flight", xLabel: "time (s)",
      yLabel: "value", xRange: 0...end, yRange: -0.1...1.2)
    chart.guides = [0, 1]
    chart.series = [
      Chart.Series(
        name: "position / 100 (spring .smooth, from 0 s)", points: position,
        colour: Chart.palette[0]),
      Chart.Series(
        name: "opacity (easeInOut 0.6 s, from 0.3 s)", points: opacity, colour: Chart.palette[1]),
      Chart.Series(
        name: "position before groups: frozen by the fade", points: frozen,
        colour: Chart.palette[3], dashed: true),
    ]
    chart.markers = [
      Chart.Marker(label: "fade declared: the spring runs on", point: position[fadeFrame])
    ]
    return [
      Picture(
        fileName: "independent-groups.svg",
        caption: "a position on a spring and an opacity on a curve, the second started mid-flight",
        chart: chart)
    ]
  }

  /// Decays at UIScrollView's two rates from the same flick, as AffixDancing animates them,
  /// with the projected resting value known before they start.
  static func decayPictures() -> [Picture] {
    let velocity = 1000.0
    var chart = Chart(
      title: "Decay from 1000 points per second", xLabel: "time (s)", yLabel: "x (points)",
      xRange: 0...4, yRange: 0...550)
    var markers: [Chart.Marker] = []
    for (index, (name, rate)) in [
      ("normal (0.998)", DecelerationRate.normal), ("fast (0.99)", .fast),
    ]
    .enumerated() {
      let decay = Decay(velocity: velocity, rate: rate)
      chart.guides.append(decay.projectedDistance)
      chart.series.append(
        Chart.Series(
          name: "rate \(name)", points: sampleDecay(velocity: velocity, rate: rate, until: 4),
          colour: Chart.palette[index]))
      markers.append(
        Chart.Marker(
          label:
            "projection \(Int(decay.projectedDistance.rounded())), at rest \(String(format: "%.2f", decay.restingTime())) s",
          point: (decay.restingTime(), decay.projectedDistance), colour: Chart.palette[index]))
    }
    chart.markers = markers
    return [
      Picture(
        fileName: "decay.svg",
        caption: "decays at the normal and fast rates, resting on their projections",
        chart: chart)
    ]
  }

  /// The x of a decay animated on a virtual clock at 200 frames a second, every frame.
  private static func sampleDecay(velocity: Double, rate: DecelerationRate, until end: Double)
    -> [(x: Double, y: Double)]
  {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 200)
    let body = PlottedBody()
    Dance.of(body, frames: clock).decay(\.x, velocity: velocity, rate: rate).start()
    var points = [(x: 0.0, y: body.x)]
    for frame in 1...Int(end * 200) {
      scheduler.advance(by: .milliseconds(5))
      points.append((Double(frame) / 200, body.x))
    }
    return points
  }
}

/// What the plots animate.
private final class PlottedBody {
  var x = 0.0
  var opacity = 1.0
}

/// A snappy spring from 0 to 100 retargeted to 30 with a bouncy spring, animated on a virtual
/// clock at 200 frames a second, and the same retarget drawn from rest with the springs' own
/// closed forms.
@MainActor private struct RetargetRun {
  static let frame = 0.005
  static let end = 1.2
  var positions: [(x: Double, y: Double)] = []
  var velocities: [(x: Double, y: Double)] = []
  var uninterrupted: [(x: Double, y: Double)] = []
  var fromRest: (positions: [(x: Double, y: Double)], velocities: [(x: Double, y: Double)]) = (
    [], []
  )
  var retargetPoint = (x: 0.0, y: 0.0)
  var retargetVelocity = 0.0

  init(retargetAt retargetTime: Double) {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 200)
    let body = PlottedBody()
    let dance = Dance.of(body, frames: clock)
    dance.animate(spring: .snappy) { $0.x = 100 }.start()
    let frames = Int((Self.end / Self.frame).rounded())
    let retargetFrame = Int((retargetTime / Self.frame).rounded())
    positions.append((0, body.x))
    for frame in 1...frames {
      if frame == retargetFrame + 1 {
        dance.animate(spring: .bouncy) { $0.x = 30 }.start()
      }
      scheduler.advance(by: .milliseconds(5))
      positions.append((Double(frame) * Self.frame, body.x))
    }
    velocities = Self.secants(positions)
    retargetPoint = positions[retargetFrame]
    retargetVelocity = velocities[retargetFrame - 1].y
    uninterrupted = positions.map { ($0.x, 100 * DampedSpring.snappy.value(at: $0.x)) }
    let start = retargetPoint.y
    let rest = positions.map { point in
      point.x <= retargetTime
        ? point
        : (point.x, start + (30 - start) * DampedSpring.bouncy.value(at: point.x - retargetTime))
    }
    fromRest = (rest, Self.secants(rest))
  }

  /// The velocity over each frame, placed at the frame's middle.
  private static func secants(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
    zip(points, points.dropFirst()).map { before, after in
      ((before.x + after.x) / 2, (after.y - before.y) / (after.x - before.x))
    }
  }
}
