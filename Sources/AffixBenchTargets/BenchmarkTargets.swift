package import Foundation

/// One benchmark figure's target and its latest measured range, as
/// `Docs/benchmark-targets.json` gives them: the one place both are written. `affix-bench`
/// judges a run's figures by it, `affix-demo plot` draws it, and `.ci/benchmarks.sh` checks
/// that `Docs/Benchmarks.md` states the same.
package struct BenchmarkTarget: Decodable, Sendable {
  /// The figure's name as `affix-bench` prints it.
  package var figure: String
  /// The figure of the row of `Docs/Benchmarks.md` that discusses it, when another.
  package var row: String?
  /// Whether the figure must reach the target (a speed-up) or stay at or under it.
  package var atLeast: Bool
  package var target: Double
  /// `x` for a ratio, else the unit `affix-bench` prints.
  package var unit: String
  /// The lowest and the highest value measured over the runs the page's row names.
  private var measured: [Double]
  /// The baseline the plot names, for a figure it draws.
  package var plot: String?

  /// The measured range, lowest to highest.
  package var measuredRange: ClosedRange<Double> {
    let low = measured.first ?? .nan
    return low...max(low, measured.last ?? low)
  }

  /// Whether `value` meets the target.
  package func isMet(by value: Double) -> Bool {
    atLeast ? value >= target : value <= target
  }

  /// Whether every measured value met the target.
  package var isMet: Bool {
    isMet(by: atLeast ? measuredRange.lowerBound : measuredRange.upperBound)
  }

  /// The target in words, as the page's target column starts: `at least 4x`, `at most 200 ns`.
  package var targetText: String {
    (atLeast ? "at least " : "at most ") + Self.text(target, unit)
  }

  /// `value` with its unit, as the page writes it: `4x`, `1,000 µs`.
  package static func text(_ value: Double, _ unit: String) -> String {
    unit == "x" ? "\(number(value))x" : "\(number(value)) \(unit)"
  }

  /// `value` as the page writes a number: no trailing `.0`, thousands grouped.
  package static func number(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    if value == value.rounded(), abs(value) < 1e15 {
      let digits = String(Int(abs(value)))
      var grouped = ""
      for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(digit)
      }
      return (value < 0 ? "-" : "") + grouped
    }
    return "\(value)"
  }
}

/// Reads `Docs/benchmark-targets.json` from the checkout these tools were built from.
package enum BenchmarkTargets {
  /// The data file, found from this source file's place in the checkout: the tools that read
  /// it run from a checkout (`swift run`), as the pictures and the page they serve live there.
  package static let fileURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // AffixBenchTargets
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // the checkout
    .appendingPathComponent("Docs/benchmark-targets.json")

  private struct File: Decodable {
    var targets: [BenchmarkTarget]
  }

  /// The targets, in the file's order.
  package static func load() throws -> [BenchmarkTarget] {
    try JSONDecoder().decode(File.self, from: Data(contentsOf: fileURL)).targets
  }
}
