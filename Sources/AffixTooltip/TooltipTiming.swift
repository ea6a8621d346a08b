import Affix

/// When a tooltip shows and hides.
///
/// It shows after a delay, so that a pointer passing over does not flash it, and hides with a
/// grace time, so that a pointer leaving for a moment does not hide it.
///
/// ```swift
/// let quick = TooltipTiming(showDelay: .milliseconds(200), hideDelay: .milliseconds(50))
/// ```
public struct TooltipTiming: Sendable, Hashable, CustomStringConvertible {
  /// How long the pointer rests on the host before the tooltip shows.
  public var showDelay: Duration

  /// How long the tooltip stays after the pointer leaves; a return within it keeps it shown.
  public var hideDelay: Duration

  /// Creates timing rules; a negative delay is taken as zero and reported through
  /// `Diagnostics` (subsystem `"tooltip"`) with the caller's line. A delay too long to pass
  /// (`.seconds(Int64.max)`) is kept: the tooltip then never shows, or never hides.
  ///
  /// ```swift
  /// let timing = TooltipTiming(showDelay: .seconds(1))
  /// ```
  public init(
    showDelay: Duration = .milliseconds(500), hideDelay: Duration = .milliseconds(100),
    fileID: String = #fileID, line: Int = #line
  ) {
    for (name, delay) in [("show", showDelay), ("hide", hideDelay)] where delay < .zero {
      Diagnostics.report(
        subsystem: TooltipController.subsystem,
        message: "A tooltip's \(name) delay cannot be negative (\(delay)); using zero.",
        fileID: fileID, line: line)
    }
    self.showDelay = max(showDelay, .zero)
    self.hideDelay = max(hideDelay, .zero)
  }

  /// These timings with a negative delay, set through a `var` after the initializer checked
  /// it, taken as zero and reported where a controller takes them.
  func checked() -> TooltipTiming {
    var timing = self
    for (name, delay, path) in [
      ("show", showDelay, \TooltipTiming.showDelay), ("hide", hideDelay, \TooltipTiming.hideDelay),
    ] where delay < .zero {
      Diagnostics.report(
        subsystem: TooltipController.subsystem,
        message: "A tooltip's \(name) delay cannot be negative (\(delay)); using zero.")
      timing[keyPath: path] = .zero
    }
    return timing
  }

  /// Half a second to show, a tenth to hide, as the platforms' tooltips do.
  ///
  /// ```swift
  /// let timing = TooltipTiming.standard
  /// ```
  public static let standard = TooltipTiming()

  /// `TooltipTiming(show after 0.5 seconds, hide after 0.1 seconds)`.
  public var description: String {
    "TooltipTiming(show after \(showDelay), hide after \(hideDelay))"
  }
}
