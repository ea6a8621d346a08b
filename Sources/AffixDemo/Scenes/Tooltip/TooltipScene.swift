import Affix
import AffixScheduling
import AffixTooltip

/// A tooltip that shows only when the pointer rests, and stays while the pointer comes back
/// within the grace time: the fourth mixin, written with nothing but the public kit.
enum TooltipScene {
  static func play(on stage: Stage) {
    let screen = stage.screen
    screen.title("tooltip: shown when the pointer rests, kept while it comes back")
    let button = HintedButton(stage: stage)
    screen.step("HintedButton conforms to Tooltipped: shown after 0.5 s, hidden 0.2 s after.")

    screen.step("The pointer passes over for 0.2 s:")
    stage.run { button.pointerEntered() }
    stage.pause(.milliseconds(200))
    stage.run { button.pointerExited() }
    stage.pause(.milliseconds(700))
    screen.detail("nothing was shown (\(button.changes) changes)")

    screen.step("The pointer rests for 1 s:")
    stage.run { button.pointerEntered() }
    stage.pause(.seconds(1))
    screen.detail("shown: \(button.isTooltipShown), after the show delay")

    screen.step("It leaves for 0.1 s and comes back:")
    stage.run { button.pointerExited() }
    stage.pause(.milliseconds(100))
    stage.run { button.pointerEntered() }
    stage.pause(.milliseconds(400))
    screen.detail("still shown: \(button.isTooltipShown), with \(button.changes) change in all")

    screen.step("It leaves for good:")
    stage.run { button.pointerExited() }
    stage.pause(.milliseconds(400))
    screen.detail("shown: \(button.isTooltipShown), after the grace time")

    screen.step("One exit too many is a diagnostic, not a crash:")
    stage.run { button.pointerExited() }
  }
}

/// A button that shows a hint; the mixin writes `isTooltipShown` on the stage's scheduler.
final class HintedButton: Tooltipped, Sendable {
  private let stage: Stage
  private let state = LockedState((shown: false, changes: 0))

  init(stage: Stage) {
    self.stage = stage
  }

  var isTooltipShown: Bool {
    get { state.withLock { $0.shown } }
    set {
      state.withLock { state in
        if state.shown != newValue { state.changes += 1 }
        state.shown = newValue
      }
    }
  }

  /// How often the tooltip appeared or disappeared.
  var changes: Int { state.withLock { $0.changes } }

  var tooltipClock: any SchedulingClock { stage.scheduler }
  var tooltipTiming: TooltipTiming {
    TooltipTiming(showDelay: .milliseconds(500), hideDelay: .milliseconds(200))
  }
}
