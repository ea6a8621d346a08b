// The hosts the suites share: plain classes, none of them Sendable, each on the clock it is
// given, as the must-compile fixtures declare them.
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation

final class Lamp: Dancing {
  let frames: FrameSource
  var brightness = 1.0

  init(frames: FrameSource) {
    self.frames = frames
  }

  var danceFrames: FrameSource { frames }
}

final class Card: Draggable {
  var center = CGPoint(x: 0, y: 0)
}

final class Importer: Loading {
  let clock: any SchedulingClock
  let loadingOptions: LoadingOptions
  let indicator = RecordingIndicator()

  init(clock: any SchedulingClock, options: LoadingOptions = .standard) {
    self.clock = clock
    loadingOptions = options
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { clock }
}

final class Button: Tooltipped {
  let clock: any SchedulingClock
  let tooltipTiming: TooltipTiming
  var isTooltipShown = false

  init(clock: any SchedulingClock, timing: TooltipTiming = .standard) {
    self.clock = clock
    tooltipTiming = timing
  }

  var tooltipClock: any SchedulingClock { clock }
}
