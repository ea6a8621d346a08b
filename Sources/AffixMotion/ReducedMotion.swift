import Foundation
import Synchronization

/// The one switch that makes motion reach its end state at once, for people who ask their
/// system to reduce motion.
///
/// While it is on, animations and snaps do not move: a property animation writes its final
/// value on its first frame and completes, a released drag body is placed at its snap point.
/// Completions and `ended()` still run, in the order they would have. Off by default.
///
/// Set it from your app's settings, or start the process with `AFFIX_REDUCE_MOTION=1`:
///
/// ```swift
/// ReducedMotion.isEnabled = true
/// ```
///
/// On Apple platforms, `ReducedMotion.followSystemSetting()` (main actor) sets it from the
/// system's Reduce Motion setting and keeps it in step as that changes.
///
/// A test turns it on or off for its own task (and the tasks it creates) only, so that tests
/// running in parallel do not see each other's choice:
///
/// ```swift
/// ReducedMotion.$override.withValue(true) {
///   // AffixDancing: the label's alpha is 0 from the first frame.
///   label.dance.animate(duration: 0.3) { $0.alpha = 0 }.start()
/// }
/// ```
///
/// Motion already under way keeps the choice it was started with.
public enum ReducedMotion {
  private static let storage = Atomic<Bool>(
    ProcessInfo.processInfo.environment["AFFIX_REDUCE_MOTION"].map(Self.isOn) ?? false)

  /// Overrides ``isEnabled`` for the current task and the tasks it creates; `nil` defers to the
  /// process-wide switch.
  @TaskLocal public static var override: Bool?

  /// Whether motion started now should reach its end state at once: the current task's
  /// ``override`` if it has one, otherwise the process-wide switch.
  ///
  /// Setting it sets the process-wide switch, which every thread sees.
  public static var isEnabled: Bool {
    get { override ?? storage.load(ordering: .relaxed) }
    set { storage.store(newValue, ordering: .relaxed) }
  }

  /// Whether an environment value turns the switch on: `1`, `true` or `yes`.
  package static func isOn(_ value: String) -> Bool {
    ["1", "true", "yes"].contains(value.lowercased())
  }
}
