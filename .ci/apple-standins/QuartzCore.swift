// Stand-in for Apple's `QuartzCore` module: exactly the Core Animation API that the Apple-only
// branches of Sources/ use, each declared as Apple's documentation gives its Swift declaration
// (developer.apple.com/documentation/quartzcore/<symbol>, cited beside each). Compiled once per
// flavour: `CADisplayLink.init(target:selector:)` does not exist on macOS (a Mac asks
// `NSScreen`, `NSWindow` or `NSView` for a link), so the macOS flavour (`STANDIN_MACOS`) leaves
// it out, as the SDK's `API_UNAVAILABLE(macos)` does.
//
// `NSObject` is the ObjectiveC stand-in's (an Objective-C class, as objc4 declares it);
// `RunLoop` is the toolchain's Foundation's, which declares it in the SDK's shape (its `.main`
// and `RunLoop.Mode.common` are what the branches use).
//
// Bodies are never run: this module is compiled to a .swiftmodule, never linked.

public import Foundation
@_exported import ObjectiveC

/// documentation/quartzcore/caframeraterange: `struct CAFrameRateRange` (iOS 15, macOS 12),
/// with `init(minimum: Float, maximum: Float, preferred: Float? = nil)`.
public struct CAFrameRateRange: Sendable {
  public init(minimum: Float, maximum: Float, preferred: Float? = nil) { fatalError("stand-in") }
}

/// documentation/quartzcore/cadisplaylink: `class CADisplayLink` (iOS 3.1, macOS 14), inheriting
/// from NSObject; no actor isolation in its declaration, and not `Sendable`.
open class CADisplayLink: ObjectiveC.NSObject {
  #if !STANDIN_MACOS
    /// documentation/quartzcore/cadisplaylink/init(target:selector:): `init(target: Any,
    /// selector sel: Selector)`, iOS 3.1, Mac Catalyst 13.1, tvOS 9, visionOS 1; not macOS.
    public init(target: Any, selector sel: Selector) { fatalError("stand-in") }
  #endif

  /// documentation/quartzcore/cadisplaylink/preferredframeraterange:
  /// `var preferredFrameRateRange: CAFrameRateRange { get set }` (iOS 15, macOS 14).
  open var preferredFrameRateRange: CAFrameRateRange {
    get { fatalError("stand-in") }
    set { fatalError("stand-in") }
  }

  /// documentation/quartzcore/cadisplaylink/add(to:formode:):
  /// `func add(to runloop: RunLoop, forMode mode: RunLoop.Mode)`
  open func add(to runloop: Foundation.RunLoop, forMode mode: Foundation.RunLoop.Mode) {
    fatalError("stand-in")
  }

  /// documentation/quartzcore/cadisplaylink/invalidate(): `func invalidate()`
  open func invalidate() { fatalError("stand-in") }
}
