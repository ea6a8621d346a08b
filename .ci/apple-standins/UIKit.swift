// Stand-in for Apple's `UIKit` module: exactly the UIKit API that the Apple-only branches of
// Sources/ use, each declared as Apple's documentation gives its Swift declaration
// (developer.apple.com/documentation/uikit/<symbol>, cited beside each), with the isolation the
// SDK gives UIKit: UIKit's declarations are `NS_SWIFT_UI_ACTOR` (`@MainActor`), so a branch
// that reads them off the main actor fails here as it would in Xcode; notification names are
// `nonisolated` constants.
//
//
// Bodies are never run: this module is compiled to a .swiftmodule, never linked.

public import Foundation
@_exported import ObjectiveC

// MARK: Foundation, as UIKit re-exports it

// Apple's UIKit re-exports Foundation, whose `NSObject` is objc4's. The toolchain's Foundation
// has an `NSObject` of its own (a Swift class), so it is not re-exported whole: these are the
// Foundation types the branches name, the toolchain's own, which declare the SDK's shapes
// (`NotificationCenter.default`, `addObserver(forName:object:queue:using:)` returning
// `any NSObjectProtocol`, `OperationQueue.main`).
public typealias NotificationCenter = Foundation.NotificationCenter
public typealias NSObjectProtocol = Foundation.NSObjectProtocol
public typealias NSNotification = Foundation.NSNotification

/// documentation/uikit/uiaccessibility: `struct UIAccessibility`, the namespace UIKit's
/// `UIAccessibility*` C functions and constants are imported into (`NS_SWIFT_NAME`).
public struct UIAccessibility {
  /// documentation/uikit/uiaccessibility/isreducemotionenabled:
  /// `static var isReduceMotionEnabled: Bool { get }` (iOS 8), from
  /// `UIKIT_EXTERN BOOL UIAccessibilityIsReduceMotionEnabled(void)
  /// NS_SWIFT_NAME(getter:UIAccessibility.isReduceMotionEnabled())` in UIAccessibility.h.
  @MainActor public static var isReduceMotionEnabled: Bool { fatalError("stand-in") }

  /// documentation/uikit/uiaccessibility/reducemotionstatusdidchangenotification:
  /// `static let reduceMotionStatusDidChangeNotification: NSNotification.Name` (iOS 8), from
  /// `UIKIT_EXTERN NSNotificationName const UIAccessibilityReduceMotionStatusDidChangeNotification`.
  public static let reduceMotionStatusDidChangeNotification = NSNotification.Name(
    "UIAccessibilityReduceMotionStatusDidChangeNotification")
}
