// Stand-in for Apple's `AppKit` module: exactly the AppKit API that the Apple-only branches of
// Sources/ use, each declared as Apple's documentation gives its Swift declaration
// (developer.apple.com/documentation/appkit/<symbol>, cited beside each), with the isolation the
// SDK gives AppKit: its UI classes are `NS_SWIFT_UI_ACTOR` (`@MainActor`), so a branch that
// uses them off the main actor fails here as it would in Xcode.
//
//
// Bodies are never run: this module is compiled to a .swiftmodule, never linked.

public import Foundation
@_exported import ObjectiveC
import QuartzCore

// MARK: Foundation, as AppKit re-exports it

// Apple's AppKit re-exports Foundation, whose `NSObject` is objc4's. The toolchain's Foundation
// has an `NSObject` of its own (a Swift class), so it is not re-exported whole: these are the
// Foundation types the branches name, the toolchain's own, which declare the SDK's shapes
// (`NotificationCenter.default`, `addObserver(forName:object:queue:using:)` returning
// `any NSObjectProtocol`, `OperationQueue.main`).
public typealias NotificationCenter = Foundation.NotificationCenter
public typealias NSObjectProtocol = Foundation.NSObjectProtocol
public typealias NSNotification = Foundation.NSNotification

/// documentation/appkit/nsscreen: `class NSScreen`, inheriting from NSObject; main-actor
/// isolated, as AppKit's UI classes are.
@MainActor
open class NSScreen: ObjectiveC.NSObject {
  /// documentation/appkit/nsscreen/main: `class var main: NSScreen? { get }`
  open class var main: NSScreen? { fatalError("stand-in") }

  /// documentation/appkit/nsscreen/displaylink(target:selector:) (macOS 14):
  /// `func displayLink(target: Any, selector: Selector) -> CADisplayLink`
  open func displayLink(target: Any, selector: Selector) -> CADisplayLink { fatalError("stand-in") }
}

/// documentation/appkit/nsworkspace: `class NSWorkspace`, inheriting from NSObject. Taken as
/// main-actor isolated, the stricter reading: the branch that uses it must satisfy either.
@MainActor
open class NSWorkspace: ObjectiveC.NSObject {
  /// documentation/appkit/nsworkspace/shared: `class var shared: NSWorkspace { get }`
  open class var shared: NSWorkspace { fatalError("stand-in") }

  /// documentation/appkit/nsworkspace/notificationcenter:
  /// `var notificationCenter: NotificationCenter { get }`
  open var notificationCenter: NotificationCenter { fatalError("stand-in") }

  /// documentation/appkit/nsworkspace/accessibilitydisplayshouldreducemotion (macOS 10.12):
  /// `var accessibilityDisplayShouldReduceMotion: Bool { get }`
  open var accessibilityDisplayShouldReduceMotion: Bool { fatalError("stand-in") }

  /// documentation/appkit/nsworkspace/accessibilitydisplayoptionsdidchangenotification:
  /// `class let accessibilityDisplayOptionsDidChangeNotification: NSNotification.Name`
  /// (a `nonisolated` constant, as every notification name of the SDK)
  nonisolated public static let accessibilityDisplayOptionsDidChangeNotification =
    NSNotification.Name("NSWorkspaceAccessibilityDisplayOptionsDidChangeNotification")
}
