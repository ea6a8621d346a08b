import AffixDancing
import AffixScheduling
import Foundation

/// The value types of AffixDancing: interpolation, curves, decay. A finite input must give a
/// finite result; a non-finite one must not crash.
@MainActor func valueCases() -> [BadInputCase] {
  var list = CaseList("AffixDancing")

  let ends: [(String, Double, Double)] = [
    ("huge", -1e308, 1e308), ("greatest", .greatestFiniteMagnitude, -.greatestFiniteMagnitude),
  ]

  for (label, start, end) in ends {
    list.sweep("Double.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = Double.interpolate(from: start, to: end, fraction: fraction)
      if fraction.isFinite { probe.finite(value, "at \(fraction)") }
      probe.kept(
        Double.interpolate(from: start, to: end, fraction: 1) == end, "not the target at 1")
    }
    list.sweep("CGFloat.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = CGFloat.interpolate(from: CGFloat(start), to: CGFloat(end), fraction: fraction)
      if fraction.isFinite { probe.finite(Double(value), "at \(fraction)") }
    }
    list.sweep("CGPoint.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = CGPoint.interpolate(
        from: CGPoint(x: start, y: end), to: CGPoint(x: end, y: start), fraction: fraction)
      if fraction.isFinite { probe.finite(value, "at \(fraction)") }
    }
    list.sweep("CGSize.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = CGSize.interpolate(
        from: CGSize(width: start, height: end), to: CGSize(width: end, height: start),
        fraction: fraction)
      if fraction.isFinite {
        probe.finite([Double(value.width), Double(value.height)], "at \(fraction)")
      }
    }
    list.sweep("CGRect.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = CGRect.interpolate(
        from: CGRect(x: start, y: end, width: end, height: end),
        to: CGRect(x: end, y: start, width: start, height: end),
        fraction: fraction)
      if fraction.isFinite { probe.finite(value.coordinates, "at \(fraction)") }
    }
    list.sweep("RGBAColor.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let fraction = input.value
      let value = RGBAColor.interpolate(
        from: RGBAColor(red: start, green: end, blue: 0, alpha: start),
        to: RGBAColor(red: end, green: start, blue: 1, alpha: end),
        fraction: fraction)
      if fraction.isFinite {
        probe.finite([value.red, value.green, value.blue, value.alpha], "at \(fraction)")
      }
    }
    list.sweep(
      "AffineTransform2D.interpolate(from:to:fraction:).\(label)", Inputs.allDoubles, .nonFinite
    ) { probe, input in
      let fraction = input.value
      let value = AffineTransform2D.interpolate(
        from: AffineTransform2D(a: start, b: end, c: 0, d: 1, tx: start, ty: end),
        to: AffineTransform2D(a: end, b: start, c: 1, d: 0, tx: end, ty: start), fraction: fraction)
      if fraction.isFinite {
        probe.finite([value.a, value.b, value.c, value.d, value.tx, value.ty], "at \(fraction)")
      }
    }
  }
  list.sweep("Float.interpolate(from:to:fraction:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let fraction = input.value
    let value = Float.interpolate(
      from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude, fraction: fraction)
    if fraction.isFinite { probe.finite(Double(value), "at \(fraction)") }
  }

  list.sweep("CubicBezier.init(x1:y1:x2:y2:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let control = input.value
    let curve = CubicBezier(x1: control, y1: control, x2: 0.5, y2: 0.5)
    for time in [0, 0.25, 0.5, 1] {
      let value = curve.value(at: time)
      if control.isFinite { probe.finite(value, "value(at: \(time)) of \(curve)") }
    }
  }
  list.sweep("CubicBezier.value(at:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let time = input.value
    let value = CubicBezier.ease.value(at: time)
    if time.isFinite { probe.finite(value, "value(at: \(time))") }
    let point = CubicBezier.ease.point(atParameter: time)
    if time.isFinite && abs(time) < 1e100 {
      probe.finite([point.x, point.y], "point(atParameter: \(time))")
    }
  }
  list.sweep("TimingParameters.value(at:duration:).time", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let time = input.value
    for timing in [TimingParameters.curve(.easeIn), .spring(.bouncy), .spring(dampingRatio: 0.3)] {
      let value = timing.value(at: time, duration: 1)
      if time.isFinite { probe.finite(value, "\(timing) at \(time)") }
    }
  }
  list.sweep("TimingParameters.value(at:duration:).duration", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let duration = input.value
    for timing in [TimingParameters.curve(.linear), .spring(.smooth)] {
      probe.finite(timing.value(at: 0.5, duration: duration), "\(timing) over \(duration)")
    }
  }
  list.sweep("TimingParameters.duration(forRequested:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let duration = input.value
    for timing in [TimingParameters.curve(.linear), .spring(.smooth), .spring(dampingRatio: 0.5)] {
      let used = timing.duration(forRequested: duration)
      if duration.isFinite { probe.finite(used, "\(timing) for \(duration)") }
    }
  }
  list.sweep(
    "TimingParameters.spring(dampingRatio:initialVelocity:)", Inputs.allDoubles, .nonFinite
  ) { probe, input in
    let value = input.value
    let timing = TimingParameters.spring(dampingRatio: value, initialVelocity: value)
    probe.finite(timing.value(at: 0.5, duration: 1), "\(timing) at 0.5")
    probe.finite(timing.duration(forRequested: 1), "duration of \(timing)")
  }

  list.sweep("Decay.init(velocity:rate:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let velocity = input.value
    let decay = Decay(velocity: velocity)
    probe.finite([decay.velocity, decay.projectedDistance, decay.restingTime()], "\(decay)")
    for time in [0, 0.5, 10, 1e300] {
      probe.finite(decay.offset(at: time), "offset(at: \(time))")
      probe.finite(decay.velocity(at: time), "velocity(at: \(time))")
    }
  }
  list.sweep("Decay.offset(at:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let time = input.value
    let decay = Decay(velocity: 1e308)
    if time.isFinite {
      probe.finite(decay.offset(at: time), "offset(at: \(time))")
      probe.finite(decay.velocity(at: time), "velocity(at: \(time))")
    } else {
      _ = (decay.offset(at: time), decay.velocity(at: time))
    }
  }
  list.sweep("Decay.restingTime(threshold:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let threshold = input.value
    let time = Decay(velocity: 1000).restingTime(threshold: threshold)
    if threshold.isFinite { probe.consistent(!time.isNaN && time >= 0, "resting time \(time)") }
  }
  list.sweep("Decay.projectedDistance(velocity:rate:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let velocity = input.value
    let distance = Decay.projectedDistance(velocity: velocity, rate: .fast)
    probe.finite(distance, "projected distance of \(velocity)")
  }

  list.sweep("RGBAColor.init(red:green:blue:alpha:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let value = input.value
    let color = RGBAColor(red: value, green: value, blue: value, alpha: value)
    _ = color.description
    let grey = RGBAColor(white: value, alpha: value)
    _ = grey.description
    // Components are used as given (a value's numbers are the caller's, see BadInput.md).
    probe.kept(
      [color.red, color.green, color.blue, color.alpha, grey.red, grey.alpha].allSatisfy {
        $0 == value || ($0.isNaN && value.isNaN)
      }, "a component of \(value) read back as \(color)")
  }
  list.sweep("AffineTransform2D.init(rotationAngle:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let angle = input.value
    let transform = AffineTransform2D(rotationAngle: angle)
      .concatenating(AffineTransform2D(scaleX: angle, y: 1)).concatenating(
        AffineTransform2D(translationX: 1, y: angle))
    let point = transform.apply(to: CGPoint(x: 1, y: 1))
    if angle.isFinite && abs(angle) < 1e100 { probe.finite(point, "a point under \(transform)") }
  }
  return list.cases
}
