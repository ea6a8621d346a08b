import Affix
import AffixTesting
import Testing

/// An object in a cycle with itself.
final class Loop {
  var next: Loop?
}

/// AffixTesting's limits and waits.
@MainActor func testingCases() -> [BadInputCase] {
  var list = CaseList("AffixTesting")

  list.add("RetainCycleFinder.cycle(through:objectLimit:)", Inputs.ints, kind: always(.hang)) {
    probe, limit in
    let loop = Loop()
    loop.next = Loop()
    loop.next?.next = loop
    let cycle = RetainCycleFinder.cycle(through: loop, objectLimit: limit)
    if limit >= 2 {
      probe.kept(cycle != nil, "a cycle of two was not found with a limit of \(limit)")
    } else {
      probe.consistent(cycle == nil, "a cycle of two objects found within \(limit) objects")
    }
    loop.next = nil
  }
  list.add("RetainCycleFinder.path(from:to:objectLimit:)", Inputs.ints, kind: always(.hang)) {
    probe, limit in
    let loop = Loop()
    loop.next = Loop()
    let path = RetainCycleFinder.path(from: loop, to: loop.next!, objectLimit: limit)
    if limit >= 2 {
      probe.kept(path != nil, "a path of one step was not found with a limit of \(limit)")
    }
  }
  list.add("LiveInstances.setMaximum(_:for:)", Inputs.ints, kind: always(.crash)) {
    probe, maximum in
    LiveInstances.setMaximum(maximum, for: Loop.self)
    let loop = Loop()
    trackLifetime(of: loop)
    let count = LiveInstances.counts.first { $0.typeName.contains("Loop") }
    probe.consistent(
      count.map { $0.live >= 0 && $0.peak >= $0.live } ?? true, "count \(String(describing: count))"
    )
    _ = LiveInstances.overMaximum
  }
  list.add("LifetimeToken.init(for:maximum:)", Inputs.ints, kind: always(.crash)) {
    probe, maximum in
    let token = LifetimeToken(for: Loop.self, maximum: maximum)
    let count = LiveInstances.count(of: Loop.self)
    _ = LiveInstances.counts.map(\.description)
    probe.consistent(count >= 0, "a live count of \(count)")
    withExtendedLifetime(token) {}
  }
  list.add("LeakTracker.report(waitingUpTo:)", Inputs.durations, kind: always(.hang)) {
    probe, timeout in
    let tracker = LeakTracker()
    do {
      let gone = Loop()
      tracker.track(gone)
    }
    let report = await tracker.report(waitingUpTo: timeout)
    probe.consistent(report.isClean, "a released object reported as a leak")
  }
  list.add(
    "LeakTracker.report(waitingUpTo:).leak",
    Inputs.durations.filter { $0.value <= .milliseconds(1) }, kind: always(.hang)
  ) {
    probe, timeout in
    let tracker = LeakTracker()
    let kept = Loop()
    tracker.track(kept)
    let report = await tracker.report(waitingUpTo: timeout)
    probe.consistent(!report.isClean, "a live object was not reported")
    withExtendedLifetime(kept) {}
  }
  return list.cases
}
