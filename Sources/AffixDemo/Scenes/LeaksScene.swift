enum LeaksScene {
  static func play(on stage: Stage) {
    stage.screen.title("leaks")
  }
}
