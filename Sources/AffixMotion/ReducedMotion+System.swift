#if canImport(UIKit)
  import UIKit

  extension ReducedMotion {
    @MainActor private static var systemObservation: (any NSObjectProtocol)?

    /// Makes ``isEnabled`` follow the system's Reduce Motion setting (Settings, Accessibility,
    /// Motion), now and whenever it changes. Call it once, early, from the app's launch:
    ///
    /// ```swift
    /// ReducedMotion.followSystemSetting()
    /// ```
    ///
    /// Setting ``isEnabled`` afterwards overrides the system's value until it next changes.
    ///
    /// Written against the Apple SDKs but not yet built or run there: see Docs/Platforms.md.
    @MainActor
    public static func followSystemSetting() {
      isEnabled = UIAccessibility.isReduceMotionEnabled
      guard systemObservation == nil else { return }
      systemObservation = NotificationCenter.default.addObserver(
        forName: UIAccessibility.reduceMotionStatusDidChangeNotification, object: nil,
        queue: .main
      ) { _ in
        MainActor.assumeIsolated { isEnabled = UIAccessibility.isReduceMotionEnabled }
      }
    }
  }
#elseif canImport(AppKit)
  import AppKit

  extension ReducedMotion {
    @MainActor private static var systemObservation: (any NSObjectProtocol)?

    /// Makes ``isEnabled`` follow the system's Reduce Motion setting (System Settings,
    /// Accessibility, Display), now and whenever it changes. Call it once, early, from the
    /// app's launch:
    ///
    /// ```swift
    /// ReducedMotion.followSystemSetting()
    /// ```
    ///
    /// Setting ``isEnabled`` afterwards overrides the system's value until it next changes.
    ///
    /// Written against the Apple SDKs but not yet built or run there: see Docs/Platforms.md.
    @MainActor
    public static func followSystemSetting() {
      isEnabled = NSWorkspace.shared.accessibilityDisplayShouldReduceMotion
      guard systemObservation == nil else { return }
      systemObservation = NSWorkspace.shared.notificationCenter.addObserver(
        forName: NSWorkspace.accessibilityDisplayOptionsDidChangeNotification, object: nil,
        queue: .main
      ) { _ in
        MainActor.assumeIsolated {
          isEnabled = NSWorkspace.shared.accessibilityDisplayShouldReduceMotion
        }
      }
    }
  }
#endif
