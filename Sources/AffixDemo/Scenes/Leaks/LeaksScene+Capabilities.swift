import AffixDancing
import AffixLoading
import AffixLoadingTesting
import Foundation

extension LeaksScene {
  static let capabilityKinds = ["DragController", "Dancer", "LoadingController"]

  /// Attaches a running animation and a loading indicator that is about to appear.
  static func attachMore(to widget: Widget, on stage: Stage, count: (AnyObject, String) -> Void) {
    let dance = Dance.of(widget, frames: stage.frameClock)
    count(dance.dancer, "Dancer")
    let start = widget.position
    stage.run {
      dance.animate(duration: 10, curve: .linear) {
        $0.opacity = 0
        $0.position = CGPoint(x: start.x, y: 50)
      }.start()
    }
    let scheduler = stage.scheduler
    let loading = stage.perform {
      LoadingController.attach(to: widget, indicator: RecordingIndicator(), clock: scheduler)
    }
    count(loading, "LoadingController")
    loading.start(message: "working")
  }
}
