/// The scenes, in the order the demo plays them by default.
enum SceneName: String, CaseIterable, Sendable {
  case loading
  case dancing
  case draggable
  case tooltip
  case layout
  case leaks

  /// Plays the scene to its end on `stage`, from a thread other than the stage's queue.
  func play(on stage: Stage) {
    switch self {
    case .loading: LoadingScene.play(on: stage)
    case .dancing: DancingScene.play(on: stage)
    case .draggable: DraggableScene.play(on: stage)
    case .tooltip: TooltipScene.play(on: stage)
    case .layout: LayoutScene.play(on: stage)
    case .leaks: LeaksScene.play(on: stage)
    }
  }
}
