import Affix
import Dispatch
import Synchronization

/// What ordered delivery costs: a write with one observer, and a call of a nonisolated
/// callback, each against a plain write of the same host measured in the same run.
extension CoreBenchmark {
  private enum Observed: AssociatedKey { static let defaultValue = 0 }

  static func deliveries(quick: Bool, set: Double) {
    let operations = quick ? 20_000 : 1_000_000
    let host = Host()
    let calls = Atomic<Int>(0)
    let token = Associations(of: host).observe(
      Observed.self,
      nonisolated: { value in
        calls.add(value & 1, ordering: .relaxed)
      })
    let observedSet = time(operations) {
      for value in 0..<operations { Associations(of: host)[Observed.self] = value }
    }
    // The same change through `update`: its observer's cost alone should come on top.
    let observedUpdate = time(operations) {
      for _ in 0..<operations { Associations(of: host).update(Observed.self) { $0 &+= 1 } }
    }
    token.cancel()
    blackHole(calls.load(ordering: .relaxed))

    let callback = IsolatedCallback<Int>(nonisolated: { value in
      calls.add(value & 1, ordering: .relaxed)
    })
    let call = time(operations) {
      for value in 0..<operations { callback(value) }
    }
    blackHole(calls.load(ordering: .relaxed))

    report("core.observed_set", observedSet, "ns/op")
    reportRatio("core.observed_set_vs_set", observedSet / set)
    report("core.observed_update", observedUpdate, "ns/op")
    reportRatio("core.observed_update_vs_observed_set", observedUpdate / observedSet)
    report("core.isolated_call_nonisolated", call, "ns/op")

    let writes = quick ? 100_000 : 2_000_000
    report("core.slow_observer_backlog_peak", Double(slowObserverBacklogPeak(writes)), "calls")
    report(
      "core.slow_observer_backlog_bound", Double(Associations<SharedHost>.observerBacklogBound),
      "calls")
  }

  /// The most changes that waited for an observer stuck in its first call while `writes`
  /// more were made: a writer faster than its observer, at any rate, grows its backlog no
  /// further than the bound.
  private static func slowObserverBacklogPeak(_ writes: Int) -> Int {
    let host = SharedHost()
    let stuck = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
    let first = Atomic<Bool>(true)
    let token = Associations(of: host).observe(
      Observed.self,
      nonisolated: { _ in
        guard first.exchange(false, ordering: .relaxed) else { return }
        stuck.signal()
        released.wait()
      })
    // Another thread makes the first change and runs the observer, which holds it there.
    let runner = DispatchGroup()
    DispatchQueue.global().async(group: runner) { Associations(of: host)[Observed.self] = -1 }
    stuck.wait()
    for value in 0..<writes { Associations(of: host)[Observed.self] = value }
    let peak = Associations(of: host).observerBacklogs(of: Observed.self).map(\.peak).max() ?? 0
    released.signal()
    runner.wait()
    token.cancel()
    return peak
  }
}
