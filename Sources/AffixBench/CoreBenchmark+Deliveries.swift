import Affix
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
  }
}
