import AffixMotion
import Testing

/// The process-wide switch is never set here: tests run in parallel, and every one of them
/// would see it. The override is the per-task way, and what these tests pin.
struct ReducedMotionSwitchTests {
  @Test func theOverrideWinsForItsTaskAndTheTasksItCreates() async {
    let outside = ReducedMotion.isEnabled
    await ReducedMotion.$override.withValue(!outside) {
      #expect(ReducedMotion.isEnabled == !outside)
      let child = await Task { ReducedMotion.isEnabled }.value
      #expect(child == !outside)
      ReducedMotion.$override.withValue(nil) {
        #expect(ReducedMotion.isEnabled == outside, "nil defers to the process-wide switch")
      }
    }
    #expect(ReducedMotion.isEnabled == outside)
  }

  @Test(arguments: [("1", true), ("true", true), ("YES", true), ("0", false), ("", false)])
  func theEnvironmentValueTurnsItOn(value: String, on: Bool) {
    #expect(ReducedMotion.isOn(value) == on)
  }
}
