import Affix
public import AffixScheduling

/// An object that shows a tooltip when the pointer rests on it, and hides it when the pointer
/// leaves for longer than a grace time.
///
/// Conform, give the tooltip's visibility a property, and report the pointer:
///
/// ```swift
/// final class SaveButton: Tooltipped {
///   var isTooltipShown = false  // set by the mixin
/// }
///
/// let button = SaveButton()
/// button.pointerEntered()  // shown after half a second, unless the pointer leaves first
/// button.pointerExited()
/// ```
///
/// The state lives in a ``TooltipController`` attached to the instance. The mixin writes
/// ``isTooltipShown`` in the isolation the pointer was reported from, so a main-actor view
/// conforms for the main actor alone: `extension SaveButton: @MainActor Tooltipped {}`.
public protocol Tooltipped: AnyObject {
  /// Whether the tooltip is on screen; the mixin sets it.
  var isTooltipShown: Bool { get set }

  /// When the tooltip shows and hides: ``TooltipTiming/standard`` by default. Read once, when
  /// the controller is made.
  var tooltipTiming: TooltipTiming { get }

  /// The clock that times the tooltip: `DispatchClock.main` by default.
  var tooltipClock: any SchedulingClock { get }
}

extension Tooltipped {
  /// The standard timing.
  public var tooltipTiming: TooltipTiming { .standard }

  /// The main queue's clock.
  public var tooltipClock: any SchedulingClock { DispatchClock.main }

  /// The tooltip's controller, once the pointer has been reported.
  ///
  /// ```swift
  /// let pending = button.tooltip?.isPending ?? false
  /// ```
  public var tooltip: TooltipController? {
    Associations(of: self).capability(TooltipController.self)
  }

  /// The pointer entered the object: its tooltip shows after the show delay.
  ///
  /// ```swift
  /// button.pointerEntered()
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where the object lives, and where ``isTooltipShown`` is written: the
  ///     caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func pointerEntered(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) {
    guard
      CallerIsolation.required(
        isolation, by: "pointerEntered", subsystem: TooltipController.subsystem, fileID: fileID,
        line: line) != nil
    else { return }
    controller(isolation: isolation).pointerEntered(fileID: fileID, line: line)
  }

  /// The pointer left the object: its tooltip hides after the hide delay.
  ///
  /// ```swift
  /// button.pointerExited()
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where the object lives: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public func pointerExited(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
  ) {
    guard
      CallerIsolation.required(
        isolation, by: "pointerExited", subsystem: TooltipController.subsystem, fileID: fileID,
        line: line) != nil
    else { return }
    controller(isolation: isolation).pointerExited(fileID: fileID, line: line)
  }

  /// Waits until no show or hide is pending.
  ///
  /// ```swift
  /// await button.tooltipSettled()
  /// ```
  public nonisolated(nonsending) func tooltipSettled() async {
    await tooltip?.settled()
  }

  private func controller(isolation: isolated (any Actor)?) -> TooltipController {
    let controller = Associations(of: self).capability(TooltipController.self) {
      TooltipController(timing: tooltipTiming, clock: tooltipClock)
    }
    controller.present(
      IsolatedCallback(isolation: isolation) { [weak self] shown in
        self?.isTooltipShown = shown
      })
    return controller
  }
}
