public import Affix
public import AffixScheduling
public import Observation

/// The tooltip state of one host, attached to it as a capability: whether the pointer is on
/// it, and the show or hide that is pending.
///
/// You reach it through ``Tooltipped`` (`Tooltipped.pointerEntered()`
/// and the rest), or attach one to any object at run time with
/// `attach(to:timing:clock:show:)`.
///
/// ```swift
/// final class Label {  // a type you do not own
///   var tooltipVisible = false
/// }
///
/// let label = Label()
/// let tooltip = TooltipController.attach(to: label, clock: clock) { label, shown in
///   label.tooltipVisible = shown
/// }
/// tooltip.pointerEntered()
/// ```
///
/// ``isShown`` takes part in Swift Observation: a SwiftUI view, a UIKit update method or an
/// `Observations` sequence that reads it is told when the tooltip shows or hides, on the
/// thread that makes the change (the clock's, for a delayed show or hide).
public final class TooltipController: Capability, CustomStringConvertible, Observable {
  private struct State {
    var isPointerInside = false
    var isShown = false
    /// Shows or hides the tooltip on the host, in the host's isolation.
    var present: IsolatedCallback<Bool>?
  }

  /// The subsystem of this module's diagnostics.
  static let subsystem = "tooltip"

  /// The timing rules, fixed when the controller is made.
  public let timing: TooltipTiming

  private let clock: any SchedulingClock
  private let state = LockedState(State())
  private let run = ScheduledRun()
  /// Tells Observation of ``isShown``'s changes, once anything has read it.
  private let observation = LazyObservationRegistrar()

  /// Creates a controller that times its tooltip on `clock`; attach it to a host.
  ///
  /// ```swift
  /// let tooltip = TooltipController(timing: .standard, clock: DispatchClock.main)
  /// ```
  public init(timing: TooltipTiming = .standard, clock: any SchedulingClock) {
    self.timing = timing.checked()
    self.clock = clock
  }

  /// Attaches a controller to `host`, replacing an earlier one, that shows and hides the
  /// tooltip through `show`.
  ///
  /// `show` is called in `isolation` with the host and whether to show.
  ///
  /// ```swift
  /// TooltipController.attach(to: label, clock: clock) { $0.tooltipVisible = $1 }
  /// ```
  ///
  /// - Parameters:
  ///   - host: The object the tooltip belongs to; the controller holds it weakly.
  ///   - timing: When the tooltip shows and hides.
  ///   - clock: The clock that times the delays.
  ///   - isolation: Where `show` is called; the caller's isolation unless given.
  ///   - show: Shows the tooltip on the host, or hides it.
  /// - Returns: The controller now attached to `host`.
  @discardableResult
  public static func attach<Host: AnyObject>(
    to host: Host, timing: TooltipTiming = .standard,
    clock: any SchedulingClock = DispatchClock.main,
    isolation: isolated (any Actor)? = #isolation,
    show: @escaping (Host, Bool) -> Void
  ) -> TooltipController {
    let controller = TooltipController(timing: timing, clock: clock)
    controller.present(
      IsolatedCallback(isolation: isolation) { [weak host] shown in
        if let host { show(host, shown) }
      })
    return Associations(of: host).attach(controller)
  }

  /// Whether the tooltip is shown, or about to be told to hide.
  ///
  /// ```swift
  /// if tooltip.isShown { /* ... */ }
  /// ```
  public var isShown: Bool {
    observation.access(self, keyPath: \.isShown)
    return state.withLock { $0.isShown }
  }

  /// Whether a show or a hide is pending.
  ///
  /// ```swift
  /// #expect(!tooltip.isPending)
  /// ```
  public var isPending: Bool { run.isRunning }

  /// The pointer entered the host: the tooltip shows after ``TooltipTiming/showDelay``, or
  /// stays if it is shown (a pending hide is cancelled). An enter while the pointer is inside
  /// is reported through `Diagnostics` and ignored.
  ///
  /// ```swift
  /// tooltip.pointerEntered()
  /// ```
  public func pointerEntered(fileID: String = #fileID, line: Int = #line) {
    let (wasInside, isShown) = state.withLock { state in
      defer { state.isPointerInside = true }
      return (state.isPointerInside, state.isShown)
    }
    guard !wasInside else {
      return Diagnostics.report(
        subsystem: Self.subsystem,
        message: "pointerEntered() was called with the pointer already inside; ignored.",
        fileID: fileID, line: line)
    }
    guard !isShown else {
      run.cancel()
      return
    }
    schedule(showing: true, after: timing.showDelay)
  }

  /// The pointer left the host: the tooltip hides after ``TooltipTiming/hideDelay``, or never
  /// shows if its show is pending. A leave with the pointer outside is reported through
  /// `Diagnostics` and ignored.
  ///
  /// ```swift
  /// tooltip.pointerExited()
  /// ```
  public func pointerExited(fileID: String = #fileID, line: Int = #line) {
    let (wasInside, isShown) = state.withLock { state in
      defer { state.isPointerInside = false }
      return (state.isPointerInside, state.isShown)
    }
    guard wasInside else {
      return Diagnostics.report(
        subsystem: Self.subsystem,
        message: "pointerExited() was called with the pointer outside; ignored.",
        fileID: fileID, line: line)
    }
    guard isShown else {
      run.cancel()
      return
    }
    schedule(showing: false, after: timing.hideDelay)
  }

  /// Hides the tooltip at once, cancelling what is pending, as a click on the host does.
  ///
  /// ```swift
  /// tooltip.dismiss()
  /// ```
  public func dismiss() {
    run.cancel()
    setShown(false)
  }

  /// Waits until no show or hide is pending and the host has been told the last change.
  ///
  /// The host has been told once the write of its property, queued on its isolation, has run.
  /// It returns at once if nothing is pending, or when the task is cancelled.
  ///
  /// ```swift
  /// tooltip.pointerEntered()
  /// await tooltip.settled()  // shown
  /// ```
  public nonisolated(nonsending) func settled() async {
    await run.finished()
    await state.withLock { $0.present }?.delivered()
  }

  /// Stops what is pending; a shown tooltip is hidden unless the host died.
  public func didEnd(_ ending: CapabilityEnding) {
    run.shutDown()
    if ending != .hostDied { setShown(false) }
  }

  deinit {
    run.shutDown()
  }

  /// `TooltipController(shown)`, `TooltipController(hidden, pending)` and so on.
  public var description: String {
    "TooltipController(\(isShown ? "shown" : "hidden")\(isPending ? ", pending" : ""))"
  }

  /// Sets how the tooltip is shown: the host's property, in the host's isolation.
  func present(_ present: IsolatedCallback<Bool>) {
    state.withLock { $0.present = present }
  }

  private func schedule(showing shown: Bool, after delay: Duration) {
    // The closure holds the controller weakly: the run keeps its token, and a controller kept
    // alive by its own run would outlive its host.
    run.start { [clock] id in
      clock.schedule(after: delay) { [weak self] in
        guard let self, self.run.isCurrent(id) else { return }
        self.setShown(shown)
        self.run.finish(id)
      }
    }
  }

  private func setShown(_ shown: Bool) {
    // Observation is told before the change and outside the lock, as it runs trackers there;
    // the unlocked look first, so that a hide of a hidden tooltip is no change.
    guard state.withLock({ $0.isShown }) != shown else { return }
    let present = observation.withMutation(of: self, keyPath: \.isShown) {
      state.withLock { state -> IsolatedCallback<Bool>? in
        guard state.isShown != shown else { return nil }
        state.isShown = shown
        return state.present
      }
    }
    present?(shown)
  }
}
