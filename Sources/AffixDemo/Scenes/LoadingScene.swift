/// Waits for its module to land.
enum LoadingScene {
  static func play(on stage: Stage) {
    stage.screen.title("loading")
    stage.screen.step("(this scene arrives with AffixLoading)")
  }
}
