import Affix
import Foundation

/// The checks that bring a spring's parameters within what it can hold, and their reports.
extension DampedSpring {
  /// Reports `problems`, what replaced them, and when the spring made instead settles: what
  /// happens instead, and by when it is over.
  static func report(
    _ problems: [String], using replacements: [String], settling: Double, fileID: String,
    line: Int
  ) {
    guard !problems.isEmpty else { return }
    Diagnostics.report(
      subsystem: "motion",
      message: "A spring cannot have " + problems.joined(separator: " or ") + "; using "
        + replacements.joined(separator: " and ") + " instead, which settles within "
        + "\(settling) s.", fileID: fileID, line: line)
  }

  /// `period` (a response, duration or 1 / frequency, in seconds), brought within the periods
  /// of ``naturalFrequencyRange``; a period outside them joins `problems`.
  static func usablePeriod(
    _ period: Double, named name: String, problems: inout [String],
    replacements: inout [String]
  ) -> Double {
    let shortest = 2 * Double.pi / naturalFrequencyRange.upperBound
    let longest = 2 * Double.pi / naturalFrequencyRange.lowerBound
    let usable = min(max(period, shortest), longest)
    if usable != period {
      problems.append("a \(name) of \(period) s")
      replacements.append("\(usable) s")
    }
    return usable
  }

  static func stiffness(response: Double, mass: Double) -> Double {
    let frequency = 2 * Double.pi / response
    return frequency * frequency * mass
  }
}
