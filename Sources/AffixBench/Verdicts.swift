import Affix
import AffixBenchTargets

/// The figures of this run, judged against the targets of `Docs/benchmark-targets.json` once
/// every benchmark has run. Printed, never gated: a shared machine's figures swing.
enum Verdicts {
  private static let figures = LockedState<[String: Double]>([:])

  /// Keeps `value`, just printed as `name`.
  static func measured(_ name: String, _ value: Double) {
    figures.withLock { $0[name] = value }
  }

  /// Prints `targets.<figure>: met|missed (value, target)` for each target this run measured,
  /// then how many were met.
  static func print() {
    let targets: [BenchmarkTarget]
    do {
      targets = try BenchmarkTargets.load()
    } catch {
      Swift.print("targets: unavailable (\(BenchmarkTargets.fileURL.path): \(error))")
      return
    }
    let measured = figures.withLock { $0 }
    var met = 0
    var judged = 0
    for target in targets {
      guard let value = measured[target.figure] else { continue }
      judged += 1
      let isMet = target.isMet(by: value)
      if isMet { met += 1 }
      let shown = BenchmarkTarget.text(rounded(value), target.unit)
      Swift.print(
        "targets.\(target.figure): \(isMet ? "met" : "missed") (\(shown); \(target.targetText))")
    }
    Swift.print("targets.met: \(met) of \(judged)")
  }

  /// Three significant digits, as the page states figures.
  private static func rounded(_ value: Double) -> Double {
    guard value.isFinite, value != 0 else { return value }
    var scale = 1.0
    while abs(value) * scale < 100 { scale *= 10 }
    while abs(value) * scale >= 1000 { scale /= 10 }
    return (value * scale).rounded() / scale
  }
}
