import Affix
import AffixDancing
import AffixMotion
import AffixScheduling
import Foundation

/// A view with properties to animate.
final class Sprite {
  var x = 0.0
  var y = 0.0
  var point = CGPoint.zero
  var color = RGBAColor.black
  var scale: Float = 1
}

/// A main-actor view: its handle may travel to another isolation, its properties may not.
@MainActor final class Lamp {
  var brightness = 1.0
}

/// An actor other than the main one, calling a handle from its own isolation.
actor Elsewhere {
  func start(_ dance: Dance<Lamp>) {
    _ = self
    dance.start()
  }
}

/// Runs `dance` for `seconds` in frames of 100 ms, checking after each that the sprite's values
/// are finite (or at a non-finite target) and that the handle's figures are consistent.
@MainActor func watch(
  _ dance: Dance<Sprite>, _ sprite: Sprite, on stage: Stage, seconds: Int = 3, _ probe: Probe,
  target: Double? = nil
) {
  for step in 0..<(seconds * 10) {
    stage.advance(milliseconds: 100)
    if target?.isFinite != false { probe.finite(sprite.x, "x after \(step + 1) frames") }
    probe.finite(sprite.point, "point after \(step + 1) frames")
    let progress = dance.progress
    probe.consistent(progress.isWithin(0...1), "progress \(progress)")
    probe.consistent(
      dance.isRunning == (dance.state == .active && dance.isRunning), "running but \(dance.state)")
    if probe.findings.count > 0 { return }
  }
}

@MainActor func dancingCases() -> [BadInputCase] {
  var list = CaseList("AffixDancing")
  let doubles = Inputs.doubles
  let misuse: Set<Family> = [.nonFinite, .negative]

  list.add(
    "Dance.animate(duration:curve:_:)", doubles, kind: timedClass,
    reportFor: misuse
  ) {
    probe, duration in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: duration, curve: .linear) { $0.x = 100 }
      .start()
    watch(dance, sprite, on: stage, probe)
    if !(duration > 2.9) {
      probe.kept(sprite.x == 100, "x is \(sprite.x), not its target, after the animation")
      probe.consistent(dance.state == .inactive, "state \(dance.state) after the animation")
    }
  }
  list.add(
    "Dance.animate(duration:curve:_:).repeatingForever",
    doubles.filter { $0.family == .tiny || $0.family == .zero }, kind: always(.hang)
  ) {
    probe, duration in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: duration, curve: .linear) { $0.x = 100 }
      .repeatingForever(autoreverses: true).start()
    watch(dance, sprite, on: stage, seconds: 1, probe)
    dance.stop()
    probe.consistent(dance.state != .active || !dance.isRunning, "running after stop")
  }
  list.add(
    "Dance.animate(duration:dampingRatio:_:)", doubles, kind: numericClass
  ) {
    probe, ratio in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, dampingRatio: ratio) { $0.x = 100 }.start()
    watch(dance, sprite, on: stage, probe)
  }
  list.add(
    "Dance.animate(duration:controlPoint1:controlPoint2:_:)", Inputs.points,
    kind: numericClass, reportFor: [.nonFinite, .huge]
  ) {
    probe, control in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(
      duration: 1, controlPoint1: control, controlPoint2: CGPoint(x: 0.5, y: 0.5)
    ) {
      $0.x = 100
    }.start()
    watch(dance, sprite, on: stage, probe)
    probe.kept(sprite.x == 100, "x is \(sprite.x) after the animation")
  }
  list.add(
    "Dance.animate(duration:timingParameters:_:)", doubles, kind: numericClass
  ) {
    probe, value in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(
      duration: 1, timingParameters: .spring(dampingRatio: value, initialVelocity: value)
    ) { $0.x = 100 }.start()
    watch(dance, sprite, on: stage, probe)
  }
  list.add("Dance.animate(spring:_:)", doubles, kind: numericClass) {
    probe, value in
    let stage = Stage()
    let sprite = Sprite()
    let spring = DampedSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: value)
    let dance = stage.dance(sprite).animate(spring: spring) { $0.point = CGPoint(x: 100, y: -100) }
      .start()
    watch(dance, sprite, on: stage, probe)
  }
  list.add(
    "Dance.then(duration:curve:_:)", doubles, kind: timedClass,
    reportFor: misuse
  ) {
    probe, duration in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 0.2) { $0.x = 50 }
      .then(duration: duration) { $0.x = 100 }.start()
    watch(dance, sprite, on: stage, probe)
    if !(duration > 2) { probe.kept(sprite.x == 100, "x is \(sprite.x) after the chain") }
  }
  list.add(
    "Dance.start(after:)", doubles, kind: timedClass, reportFor: misuse
  ) { probe, delay in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 0.5, curve: .linear) { $0.x = 100 }.start(
      after: delay)
    watch(dance, sprite, on: stage, probe)
    // A delay that is negative or no number of seconds is reported and taken as zero.
    let effective = delay.isFinite && delay >= 0 ? delay : 0
    if effective <= 2 {
      probe.kept(sprite.x == 100, "x is \(sprite.x) after a start after \(delay)")
    }
    dance.stop(withoutFinishing: true)
  }
  list.add(
    "Dance.pause(after:)", doubles, kind: timedClass, reportFor: misuse
  ) { probe, delay in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    dance.pause(after: delay)
    watch(dance, sprite, on: stage, probe)
    probe.consistent(dance.state != .stopped, "a pause stopped the animation")
  }
  for (kind, values) in [("Double", doubles), ("Float", Inputs.someDoubles)] {
    list.add(
      "Dance.setProgress(to:).\(kind)", values, kind: numericClass,
      reportFor: [.nonFinite, .negative, .huge]
    ) {
      probe, fraction in
      let stage = Stage()
      let sprite = Sprite()
      let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }
      if kind == "Float" {
        dance.setProgress(to: Float(fraction))
      } else {
        dance.setProgress(to: fraction)
      }
      probe.finite(sprite.x, "x after setProgress(\(fraction))")
      probe.consistent(dance.progress.isWithin(0...1), "progress \(dance.progress)")
      probe.consistent(sprite.x.isWithin(0...100), "x \(sprite.x) outside its animation")
      dance.start()
      watch(dance, sprite, on: stage, probe)
    }
  }
  list.add(
    "Dance.continueAnimation(timingParameters:durationFactor:)", doubles,
    kind: timedClass, reportFor: misuse
  ) {
    probe, factor in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    stage.advance(milliseconds: 300)
    dance.pause()
    dance.continueAnimation(timingParameters: .curve(.easeOut), durationFactor: factor)
    watch(dance, sprite, on: stage, probe)
  }
  list.add(
    "Dance.addAnimations(delayFactor:_:)", doubles, kind: numericClass,
    reportFor: [.nonFinite, .negative, .huge]
  ) {
    probe, factor in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }
    dance.addAnimations(delayFactor: factor) { $0.y = 100 }
    dance.start()
    watch(dance, sprite, on: stage, probe)
    probe.finite(sprite.y, "y")
  }
  for (label, duration) in [("1s", 1.0), ("1e-300", 1e-300)] {
    list.add(
      "Dance.repeating(count:autoreverses:).\(label)", Inputs.ints,
      kind: always(.hang), reportFor: [.negative, .zero]
    ) {
      probe, count in
      let stage = Stage()
      let sprite = Sprite()
      let dance = stage.dance(sprite).animate(duration: duration, curve: .linear) { $0.x = 100 }
        .repeating(count: count, autoreverses: count % 2 == 0).start()
      watch(dance, sprite, on: stage, seconds: 2, probe)
      probe.consistent(sprite.x.isWithin(0...100), "x \(sprite.x)")
    }
  }
  list.add(
    "Dance.decay(_:velocity:rate:).Double", doubles, kind: numericClass,
    reportFor: [.nonFinite]
  ) {
    probe, velocity in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).decay(\Sprite.x, velocity: velocity).start()
    watch(dance, sprite, on: stage, seconds: 5, probe)
  }
  list.add(
    "Dance.decay(_:velocity:rate:).CGPoint", Inputs.points,
    kind: numericClass, reportFor: [.nonFinite]
  ) {
    probe, velocity in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).decay(\Sprite.point, velocity: velocity).start()
    watch(dance, sprite, on: stage, seconds: 5, probe)
  }
  let endpoints = [
    ("-1e308to1e308", -1e308, 1e308),
    ("greatest", Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude),
    ("tiny", Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude),
  ]
  for curve in TimingCurve.allCases {
    list.add(
      "Dance.animate(duration:curve:_:).endpoints", "\(curve)", .nonFinite
    ) { probe in
      for (_, from, to) in endpoints {
        let stage = Stage()
        let sprite = Sprite()
        sprite.x = from
        let dance = stage.dance(sprite).animate(duration: 1, curve: curve) { $0.x = to }.start()
        watch(dance, sprite, on: stage, seconds: 2, probe)
        probe.kept(sprite.x == to, "x is \(sprite.x), not \(to)")
      }
    }
  }
  for (label, target) in [("nan", Double.nan), ("inf", Double.infinity)] {
    list.add("DanceProxy.subscript(dynamicMember:)", label, .nonFinite) { probe in
      let stage = Stage()
      let sprite = Sprite()
      let dance = stage.dance(sprite).animate(duration: 1) {
        $0.x = target
        $0.y = 100
      }.start()
      watch(dance, sprite, on: stage, probe, target: target)
      probe.kept(sprite.y == 100, "a non-finite target of x kept y from its own")
    }
  }

  // Calls in the wrong state: reported with the caller's line, nothing changes.
  func stopped() -> (Stage, Sprite, Dance<Sprite>) {
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 1, curve: .linear) { $0.x = 100 }.start()
    stage.advance(milliseconds: 300)
    dance.stop()
    return (stage, sprite, dance)
  }
  let stoppedCalls: [(String, @MainActor (Dance<Sprite>) -> Void)] = [
    ("start", { $0.start() }), ("pause", { $0.pause() }),
    ("setProgress", { $0.setProgress(to: 0.5) }),
    ("reverse", { $0.reverse() }), ("start(after:)", { $0.start(after: 1) }),
    ("stop", { $0.stop() }),
    ("continueAnimation", { $0.continueAnimation() }),
  ]
  for (call, body) in stoppedCalls {
    list.add("Dance.\(call)", "whenStopped", .wrongState, report: .atCaller) { probe in
      let (stage, sprite, dance) = stopped()
      let x = sprite.x
      body(dance)
      stage.advance(milliseconds: 500)
      probe.consistent(
        dance.state == .stopped, "\(call) on a stopped animation left \(dance.state)")
      probe.consistent(
        sprite.x == x, "\(call) on a stopped animation moved x from \(x) to \(sprite.x)")
      dance.finish(at: .end)
      probe.consistent(
        dance.state == .inactive && sprite.x == 100,
        "finish after \(call) left \(dance.state), x \(sprite.x)")
    }
  }
  let idleCalls: [(String, @MainActor (Dance<Sprite>) -> Void)] = [
    ("start", { $0.start() }), ("pause", { $0.pause() }), ("stop", { $0.stop() }),
    ("finish(at:)", { $0.finish(at: .end) }), ("setProgress", { $0.setProgress(to: 0.5) }),
    ("reverse", { $0.reverse() }), ("continueAnimation", { $0.continueAnimation() }),
    ("repeating", { $0.repeating(count: 2) }), ("repeatingForever", { $0.repeatingForever() }),
    ("addAnimations", { $0.addAnimations { $0.y = 1 } }),
    ("start(after:)", { $0.start(after: 0.1) }),
  ]
  for (call, body) in idleCalls {
    list.add("Dance.\(call)", "withNoAnimation", .wrongState, report: .atCaller) { probe in
      let stage = Stage()
      let sprite = Sprite()
      let dance = stage.dance(sprite)
      body(dance)
      stage.advance(milliseconds: 500)
      probe.consistent(
        dance.state == .inactive && !dance.hasAnimation,
        "\(call) with no animation left \(dance.state)")
      probe.consistent(sprite.x == 0 && sprite.y == 0, "\(call) with no animation moved the sprite")
    }
  }
  for (call, body) in idleCalls where call != "addAnimations" {
    list.add("Dance.\(call)", "afterHostDied", .deadHost) { probe in
      let stage = Stage()
      var sprite: Sprite? = Sprite()
      let dance = stage.dance(sprite!).animate(duration: 1) { $0.x = 100 }.start()
      stage.advance(milliseconds: 100)
      sprite = nil
      AssociationTable.sweep()
      body(dance)
      stage.advance(milliseconds: 2000)
      probe.consistent(!dance.isRunning, "an animation of a dead host runs: \(dance.state)")
      let ended = await dance.ended()
      _ = ended
    }
  }
  list.add(
    "Dance.animate(duration:curve:_:)", "afterHostDied", .deadHost,
    report: .atCaller
  ) { probe in
    let stage = Stage()
    var sprite: Sprite? = Sprite()
    let dance = stage.dance(sprite!)
    _ = dance.animate(duration: 1) { $0.x = 1 }
    sprite = nil
    AssociationTable.sweep()
    dance.animate(duration: 1) { $0.x = 100 }.start()
    stage.advance(milliseconds: 2000)
    probe.consistent(
      !dance.isRunning && !dance.hasAnimation, "\(dance.state), has animation \(dance.hasAnimation)"
    )
  }
  list.add("Dance.ended()", "neverStarted", .hang) { probe in
    let stage = Stage()
    let dance = stage.dance(Sprite()).animate(duration: 1) { $0.x = 1 }
    dance.stop(withoutFinishing: true)
    let ended = await dance.ended()
    probe.consistent(ended == nil || ended == .current, "ended at \(String(describing: ended))")
  }
  list.add("Dance.ended()", "noAnimation", .hang) { probe in
    let stage = Stage()
    let ended = await stage.dance(Sprite()).ended()
    probe.consistent(ended == nil, "ended at \(String(describing: ended))")
  }
  for (label, host) in bridgedHosts() {
    list.add("Dance.of(_:frames:)", label, .refusedHost, report: .required) { probe in
      let stage = Stage()
      let dance = stage.dance(host())
      dance.animate(duration: 0.5) { _ in }.start()
      stage.advance(milliseconds: 1000)
      probe.consistent(!dance.isRunning, "an animation of a refused host is running")
      _ = await dance.ended()
    }
  }

  // Calls from outside the host's isolation: reported, nothing changes.
  list.add(
    "Dance.start()", "fromADetachedTask", .wrongState, report: .atCaller
  ) { probe in
    let stage = Stage()
    let lamp = Lamp()
    let dance = stage.dance(lamp).animate(duration: 1) { $0.brightness = 0 }
    await Task.detached { _ = dance.start().setProgress(to: 0.5).pause().reverse().stop() }.value
    stage.advance(milliseconds: 500)
    probe.consistent(
      lamp.brightness == 1 && dance.state == .inactive,
      "brightness \(lamp.brightness), \(dance.state)")
  }
  list.add(
    "Dance.start()", "fromAnotherActor", .wrongState, report: .atCaller
  ) { probe in
    let stage = Stage()
    let lamp = Lamp()
    let dance = stage.dance(lamp).animate(duration: 1) { $0.brightness = 0 }
    await Elsewhere().start(dance)
    stage.advance(milliseconds: 500)
    probe.consistent(
      lamp.brightness == 1 && dance.state == .inactive,
      "brightness \(lamp.brightness), \(dance.state)")
  }

  return list.cases
}
