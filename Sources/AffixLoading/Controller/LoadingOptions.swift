import Affix
import AffixScheduling

/// The timing rules of a loading indicator.
///
/// ```swift
/// // Show nothing for work under 0.2 s; once shown, stay at least 0.5 s.
/// let options = LoadingOptions(graceTime: .milliseconds(200), minimumShowTime: .milliseconds(500))
/// ```
///
/// Values that make no sense (negative times, a zero tick interval or one below
/// ``minimumTickInterval``, a non-finite angle) are replaced by the nearest sensible value and
/// reported through `Diagnostics`, with the caller's line, when a ``LoadingController`` is
/// created with them. Times
/// too long to ever pass (`.seconds(Int64.max)`) are kept: the indicator then never appears,
/// or never hides before its work stops, as asked.
public struct LoadingOptions: Sendable, Hashable {
  /// How long work may run before the indicator appears; work that ends sooner shows nothing.
  public var graceTime: Duration

  /// The shortest time the indicator stays visible once it has appeared.
  public var minimumShowTime: Duration

  /// The time between two ticks of the indicator's animation while it is visible.
  public var tickInterval: Duration

  /// The angle, in radians, that the indicator turns at each tick.
  public var anglePerTick: Double

  /// Creates the timing rules of a loading indicator.
  ///
  /// The defaults follow the original mixin (a tick every 0.05 s, 0.4 rad a tick) and common
  /// HUD practice (a 0.3 s grace time, a 0.5 s minimum show time).
  ///
  /// - Parameters:
  ///   - graceTime: How long work may run before the indicator appears.
  ///   - minimumShowTime: The shortest time the indicator stays visible once it has appeared.
  ///   - tickInterval: The time between two ticks of the indicator's animation.
  ///   - anglePerTick: The angle, in radians, that the indicator turns at each tick.
  public init(
    graceTime: Duration = .milliseconds(300),
    minimumShowTime: Duration = .milliseconds(500),
    tickInterval: Duration = .milliseconds(50),
    anglePerTick: Double = 0.4
  ) {
    self.graceTime = graceTime
    self.minimumShowTime = minimumShowTime
    self.tickInterval = tickInterval
    self.anglePerTick = anglePerTick
  }

  /// The default options.
  public static let standard = LoadingOptions()

  /// The shortest ``tickInterval``: one millisecond, a frame of the fastest `FrameSource`.
  ///
  /// A tick redraws the indicator, and no display shows more than a frame a millisecond; a
  /// shorter interval would only keep the clock's queue busy redrawing.
  public static let minimumTickInterval = Duration.seconds(1) / FrameSource.maximumFramesPerSecond

  /// These options with every unusable value replaced, each replacement reported with the
  /// call site that handed them in.
  func validated(fileID: String, line: Int) -> LoadingOptions {
    func report(_ message: String) {
      Diagnostics.report(
        subsystem: "loading", message: message.prefix(1).uppercased() + message.dropFirst() + ".",
        fileID: fileID, line: line)
    }
    var options = self
    let defaults = LoadingOptions()
    if graceTime < .zero {
      report("a grace time cannot be negative (\(graceTime)); using zero")
      options.graceTime = .zero
    }
    if minimumShowTime < .zero {
      report("a minimum show time cannot be negative (\(minimumShowTime)); using zero")
      options.minimumShowTime = .zero
    }
    if tickInterval <= .zero {
      report(
        "a tick interval must be positive (\(tickInterval)); using \(defaults.tickInterval)")
      options.tickInterval = defaults.tickInterval
    } else if tickInterval < Self.minimumTickInterval {
      report(
        "a tick interval of \(tickInterval) is shorter than a frame can be; using "
          + "\(Self.minimumTickInterval)")
      options.tickInterval = Self.minimumTickInterval
    }
    if !anglePerTick.isFinite {
      report("an angle per tick must be finite (\(anglePerTick)); using \(defaults.anglePerTick)")
      options.anglePerTick = defaults.anglePerTick
    }
    return options
  }
}
