// This file imports AffixDancing alone, not AffixMotion, where `DampedSpring` is declared:
// a user who writes an animation's spring needs no second import.
import AffixDancing
import Testing

@Suite("The spring an animation takes, named with AffixDancing alone")
struct SpringImportTests {
  @Test("a spring is named and timed through the AffixDancing import")
  func aSpringIsNamedThroughTheDancingImport() {
    let spring = DampedSpring(duration: 0.4, bounce: 0.2)
    #expect(TimingParameters.spring(spring) == .spring(spring))
    #expect(TimingParameters.spring(spring) != .spring(.bouncy))
    #expect(spring.settlingDuration > 0)
  }
}
