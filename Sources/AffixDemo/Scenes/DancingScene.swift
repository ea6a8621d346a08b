/// Waits for its module to land.
enum DancingScene {
  static func play(on stage: Stage) {
    stage.screen.title("dancing")
    stage.screen.step("(this scene arrives with AffixDancing)")
  }
}
