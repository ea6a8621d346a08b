import AffixMotion
import AffixScheduling

/// Springs and deceleration: the constants a motion takes, and the times it is read at.
@MainActor func motionCases() -> [BadInputCase] {
  var list = CaseList("AffixMotion")
  let doubles = Inputs.doubles
  let nonPositive = Family.nonPositive

  list.add(
    "DampedSpring.init(mass:stiffness:damping:initialVelocity:).mass", doubles, kind: numericClass,
    reportFor: Family.all
  ) {
    probe, mass in check(DampedSpring(mass: mass, stiffness: 100, damping: 10), probe)
  }
  list.add(
    "DampedSpring.init(mass:stiffness:damping:initialVelocity:).stiffness", doubles,
    kind: numericClass, reportFor: Family.all
  ) {
    probe, stiffness in check(DampedSpring(mass: 1, stiffness: stiffness, damping: 10), probe)
  }
  list.add(
    "DampedSpring.init(mass:stiffness:damping:initialVelocity:).damping", doubles,
    kind: numericClass, reportFor: [.nonFinite, .negative, .huge]
  ) {
    probe, damping in check(DampedSpring(mass: 1, stiffness: 100, damping: damping), probe)
  }
  list.add(
    "DampedSpring.init(mass:stiffness:damping:initialVelocity:).initialVelocity", doubles,
    kind: numericClass, reportFor: [.nonFinite, .huge]
  ) {
    probe, velocity in
    check(DampedSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: velocity), probe)
  }
  for pair in [
    ("both1e300", 1e300, 1e300), ("both1e-300", 1e-300, 1e-300), ("1e300/1e-300", 1e300, 1e-300),
  ] {
    list.add("DampedSpring.init(mass:stiffness:damping:initialVelocity:).pair", pair.0, .nonFinite)
    { probe in
      check(DampedSpring(mass: pair.1, stiffness: pair.2, damping: 1), probe)
    }
  }
  list.add(
    "DampedSpring.init(frequency:dampingRatio:).frequency", doubles, kind: numericClass,
    reportFor: Family.all
  ) {
    probe, frequency in check(DampedSpring(frequency: frequency, dampingRatio: 0.5), probe)
  }
  list.add(
    "DampedSpring.init(frequency:dampingRatio:).dampingRatio", doubles,
    kind: numericClass, reportFor: [.nonFinite, .negative, .huge]
  ) {
    probe, ratio in check(DampedSpring(frequency: 2, dampingRatio: ratio), probe)
  }
  list.add(
    "DampedSpring.init(response:dampingRatio:initialVelocity:).response", doubles,
    kind: numericClass, reportFor: Family.all
  ) {
    probe, response in check(DampedSpring(response: response, dampingRatio: 0.8), probe)
  }
  list.add(
    "DampedSpring.init(response:dampingRatio:initialVelocity:).dampingRatio", doubles,
    kind: numericClass, reportFor: [.nonFinite, .negative, .huge]
  ) {
    probe, ratio in check(DampedSpring(response: 0.5, dampingRatio: ratio), probe)
  }
  list.add(
    "DampedSpring.init(duration:bounce:initialVelocity:).duration", doubles,
    kind: numericClass, reportFor: Family.all
  ) {
    probe, duration in check(DampedSpring(duration: duration, bounce: 0.2), probe)
  }
  list.add(
    "DampedSpring.init(duration:bounce:initialVelocity:).bounce", doubles,
    kind: numericClass
  ) {
    probe, bounce in check(DampedSpring(duration: 0.5, bounce: bounce), probe)
  }
  list.add(
    "DampedSpring.init(duration:bounce:initialVelocity:).initialVelocity",
    Inputs.someDoubles, kind: numericClass
  ) {
    probe, velocity in
    check(DampedSpring(duration: 0.5, bounce: 0, initialVelocity: velocity), probe)
  }
  list.sweep("DampedSpring.smooth(duration:extraBounce:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let duration = input.value
    check(DampedSpring.smooth(duration: duration, extraBounce: duration), probe)
  }
  list.sweep("DampedSpring.bouncy(duration:extraBounce:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let duration = input.value
    check(DampedSpring.bouncy(duration: duration), probe)
  }
  list.sweep("DampedSpring.snappy(duration:extraBounce:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let bounce = input.value
    check(DampedSpring.snappy(duration: 0.5, extraBounce: bounce), probe)
  }
  list.sweep("DampedSpring.withInitialVelocity(_:)", Inputs.allDoubles, .nonFinite) {
    probe, input in
    let velocity = input.value
    check(DampedSpring.smooth.withInitialVelocity(velocity), probe)
  }
  let springs: [(String, @MainActor () -> DampedSpring)] = [
    ("smooth", { .smooth }),
    ("stiff", { DampedSpring(mass: 1e-300, stiffness: 1e300, damping: 1) }),
    ("underdamped", { DampedSpring(frequency: 1e9, dampingRatio: 0) }),
  ]
  for spring in springs {
    list.sweep("DampedSpring.value(at:).\(spring.0)", Inputs.allDoubles, .nonFinite) {
      probe, input in
      let time = input.value
      probe.finite(spring.1().value(at: time), "value(at: \(time))")
      probe.finite(spring.1().velocity(at: time), "velocity(at: \(time))")
      probe.finite(spring.1().impulseResponse(at: time), "impulseResponse(at: \(time))")
    }
  }
  list.sweep(
    "DampedSpring.unitVelocity(pointsPerSecond:distance:).pointsPerSecond", Inputs.allDoubles,
    .nonFinite
  ) { probe, input in
    let speed = input.value
    probe.finite(DampedSpring.unitVelocity(pointsPerSecond: speed, distance: 1e-300), "over 1e-300")
    probe.finite(DampedSpring.unitVelocity(pointsPerSecond: speed, distance: 100), "over 100")
  }
  list.sweep(
    "DampedSpring.unitVelocity(pointsPerSecond:distance:).distance", Inputs.allDoubles, .nonFinite
  ) { probe, input in
    let distance = input.value
    probe.finite(DampedSpring.unitVelocity(pointsPerSecond: 1e308, distance: distance), "of 1e308")
    probe.finite(DampedSpring.unitVelocity(pointsPerSecond: 100, distance: distance), "of 100")
  }

  list.sweep("DecelerationRate.init(rawValue:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let raw = input.value
    guard let rate = DecelerationRate(rawValue: raw) else { return }
    probe.consistent(rate.rawValue > 0 && rate.rawValue < 1, "accepted a rate of \(raw)")
    probe.finite(rate.projection(of: 1000), "projection of 1000")
  }
  list.sweep("DecelerationRate.projection(of:)", Inputs.allDoubles, .nonFinite) { probe, input in
    let velocity = input.value
    let projected = DecelerationRate.normal.projection(of: velocity)
    if velocity.isFinite { probe.finite(projected, "projection of \(velocity)") }
  }
  _ = nonPositive
  return list.cases
}

/// A spring's constants, its derived figures and its motion must be finite, and it must rest.
@MainActor private func check(_ spring: DampedSpring, _ probe: Probe) {
  probe.finite(
    [
      spring.mass, spring.stiffness, spring.damping, spring.initialVelocity, spring.dampingRatio,
      spring.frequency, spring.naturalFrequency, spring.settlingDuration,
    ], "constants of \(spring)")
  probe.consistent(
    spring.mass > 0 && spring.stiffness > 0 && spring.damping >= 0,
    "constants out of range: \(spring)")
  for time in [0, 1e-9, 0.016, 0.5, 1, 10, spring.settlingDuration, 1e15, .infinity] {
    probe.finite(spring.value(at: time), "value(at: \(time)) of \(spring)")
    probe.finite(spring.velocity(at: time), "velocity(at: \(time)) of \(spring)")
  }
  probe.consistent(
    abs(spring.value(at: 1e15) - 1) < 1e-3, "not at rest at 1e15 s: \(spring.value(at: 1e15))")
}
