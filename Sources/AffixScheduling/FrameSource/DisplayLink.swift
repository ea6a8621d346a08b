import Affix
import Dispatch

#if canImport(UIKit)
  import QuartzCore
  import UIKit
#elseif canImport(AppKit)
  import AppKit
  import QuartzCore
#endif

// The one platform file of the frame source: what fires `FrameSource.shared`'s frames. On Apple
// platforms, the display: a `CADisplayLink`, so that a 120 Hz display gets 120 frames a second,
// each in step with its refresh, where a 60 Hz Dispatch timer gave half of them, drifting
// against the refresh. Elsewhere, and as the twin that runs this file's logic on Linux, a
// Dispatch timer on the main queue. Everything but `RuntimeLink` is the same code everywhere;
// the Apple halves are type-checked here against stand-ins and run on Apple hardware alone
// (see Docs/Platforms.md).
//
// What the Apple halves rely on, from Apple's documentation:
// - `CADisplayLink.init(target:selector:)` and `NSScreen.displayLink(target:selector:)` (macOS
//   14 and later) return a link "whose callback will be invoked in-sync with the display", and
//   "the newly constructed display link retains the target": so the target here holds only the
//   frame callback, which holds its clock weakly, and `invalidate()` is what lets it go.
// - `preferredFrameRateRange` (iOS 15, macOS 14): the link "makes a best attempt" at the range,
//   and the system may choose less (Low Power Mode, thermal state, accessibility settings); so
//   a frame's `delta` is measured, never assumed. On iPhone, rates above 60 Hz also need the
//   app's `CADisableMinimumFrameDurationOnPhone` Info.plist key ("If you set this key to NO,
//   frame rates higher than the system default are unavailable"): the app's to set, not ours.
// - A link fires on the run loop it is added to: the main run loop in `.common` modes, so that
//   frames go on while a scroll view tracks a touch (`.default` mode alone pauses them), on the
//   main thread, which is the main queue and the main actor's executor there.
// - On macOS, a link from `NSScreen.main` follows that screen; a window moved to another screen
//   keeps the first screen's refresh (`NSView`'s link would follow the view, but the shared
//   clock has no view). With no screen at all (a headless Mac), the Dispatch timer stands in.

/// Starts and stops the frames of a clock driven by the display.
package enum DisplayLink {
  /// Whether frames here come from the display, rather than from a Dispatch timer.
  static var followsTheDisplay: Bool {
    #if canImport(UIKit) || canImport(AppKit)
      true
    #else
      false
    #endif
  }

  /// Calls `onFrame` on the main queue at each frame, `framesPerSecond` times a second or as
  /// near as the display allows, until the returned token is cancelled (from any thread).
  static func start(
    framesPerSecond: Int, _ onFrame: @escaping @Sendable () -> Void
  ) -> CancellationToken {
    let link = Link(framesPerSecond: framesPerSecond, onFrame: onFrame)
    let isCancelled = LockedState(false)
    // A display link belongs to the main run loop, so it is made and invalidated there. A run
    // cancelled before its open gets its turn never opens a link.
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        if !isCancelled.withLock({ $0 }) { link.open() }
      }
    }
    return CancellationToken {
      isCancelled.withLock { $0 = true }
      DispatchQueue.main.async { MainActor.assumeIsolated { link.close() } }
    }
  }

  /// How many links are open now, for tests that check that a stopped clock lets its link go.
  @MainActor package static var openLinks = 0

  /// How many links were ever opened, for tests that check that one was not.
  @MainActor package static var linksOpened = 0
}

/// One run of a display-driven clock: opened on its first subscriber, closed after its last.
@MainActor private final class Link {
  private let framesPerSecond: Int
  private let onFrame: @Sendable () -> Void
  private var runtimeLink: RuntimeLink?
  private var isClosed = false

  nonisolated init(framesPerSecond: Int, onFrame: @escaping @Sendable () -> Void) {
    self.framesPerSecond = framesPerSecond
    self.onFrame = onFrame
  }

  func open() {
    guard !isClosed, runtimeLink == nil else { return }
    runtimeLink = RuntimeLink(framesPerSecond: framesPerSecond, onFrame: onFrame)
    DisplayLink.openLinks += 1
    DisplayLink.linksOpened += 1
  }

  func close() {
    isClosed = true
    guard let runtimeLink else { return }
    runtimeLink.invalidate()
    self.runtimeLink = nil
    DisplayLink.openLinks -= 1
  }
}

#if canImport(UIKit) || canImport(AppKit)
  /// The display's link, or the timer where there is no display.
  @MainActor private enum RuntimeLink {
    case display(CADisplayLink)
    case timer(MainQueueTimer)

    init(framesPerSecond: Int, onFrame: @escaping @Sendable () -> Void) {
      let target = FrameTarget(onFrame: onFrame)
      #if canImport(UIKit)
        let link = CADisplayLink(target: target, selector: #selector(FrameTarget.step(_:)))
      #else
        guard let screen = NSScreen.main else {
          self = .timer(MainQueueTimer(framesPerSecond: framesPerSecond, onFrame: onFrame))
          return
        }
        let link = screen.displayLink(target: target, selector: #selector(FrameTarget.step(_:)))
      #endif
      let rate = Float(framesPerSecond)
      link.preferredFrameRateRange = CAFrameRateRange(
        minimum: min(rate, 30), maximum: rate, preferred: rate)
      link.add(to: .main, forMode: .common)
      self = .display(link)
    }

    func invalidate() {
      switch self {
      case .display(let link): link.invalidate()
      case .timer(let timer): timer.invalidate()
      }
    }
  }

  /// The display link's target, which it retains until invalidated.
  private final class FrameTarget: NSObject {
    private let onFrame: @Sendable () -> Void

    init(onFrame: @escaping @Sendable () -> Void) {
      self.onFrame = onFrame
    }

    @objc func step(_ link: CADisplayLink) {
      onFrame()
    }
  }
#else
  /// The twin of the display's link: the timer stands in for the display.
  private typealias RuntimeLink = MainQueueTimer
#endif

/// A Dispatch timer on the main queue, `framesPerSecond` times a second.
@MainActor private final class MainQueueTimer {
  private let timer: any DispatchSourceTimer

  init(framesPerSecond: Int, onFrame: @escaping @Sendable () -> Void) {
    let interval = DispatchTimeInterval.nanoseconds(
      Int((Duration.seconds(1) / max(framesPerSecond, 1)).saturatingNanoseconds))
    timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(0))
    timer.setEventHandler(handler: onFrame)
    timer.resume()
  }

  func invalidate() {
    timer.cancel()
  }
}
