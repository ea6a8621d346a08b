import AffixBenchSupport
import Dispatch

/// Keeps the optimizer from discarding a benchmark's work: the value's bytes go to a C function
/// compiled apart, so whatever computed them must really run.
///
/// An empty Swift function is not enough: the optimizer sees that it ignores its argument and
/// deletes the loop that computed it.
@inline(never)
func blackHole<T>(_ value: T) {
  withUnsafeBytes(of: value) { affix_bench_consume($0.baseAddress, $0.count) }
}

/// Nanoseconds per operation: the best of `rounds` runs of `body`, which performs
/// `operations` operations and is timed as a whole.
func nanosecondsPerOperation(
  operations: Int, rounds: Int = 7, _ body: () -> Void
) -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    best = min(best, Double(elapsed) / Double(operations))
  }
  return best
}

/// Prints one figure as `name: value unit`, and keeps it for the verdicts on the targets.
func report(_ name: String, _ value: Double, _ unit: String, digits: Int = 2) {
  print("\(name): \(formatted(value, digits: digits)) \(unit)")
  Verdicts.measured(name, value)
}

/// Prints one ratio as `name: valuex`, and keeps it for the verdicts on the targets.
func reportRatio(_ name: String, _ value: Double) {
  print("\(name): \(formatted(value, digits: 2))x")
  Verdicts.measured(name, value)
}

func formatted(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return digits == 0 && abs(rounded) < 1e18 ? "\(Int(rounded))" : "\(rounded)"
}
