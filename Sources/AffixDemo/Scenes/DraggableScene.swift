/// Waits for its module to land.
enum DraggableScene {
  static func play(on stage: Stage) {
    stage.screen.title("draggable")
    stage.screen.step("(this scene arrives with AffixDraggable)")
  }
}
