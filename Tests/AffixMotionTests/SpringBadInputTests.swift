import Affix
import AffixMotion
import AffixTestSupport
import Testing

/// Springs with constants at the edges of `Double`: never NaN or infinity, and a report
/// naming the caller's line whenever a constant is replaced.
@Suite struct SpringBadInputTests {
  struct Constants: Sendable, CustomStringConvertible {
    var mass: Double
    var stiffness: Double
    var damping: Double
    var velocity: Double = 0
    /// Whether the spring made from them must be reported.
    var isReported: Bool

    var description: String {
      "mass \(mass), stiffness \(stiffness), damping \(damping), velocity \(velocity)"
    }
  }

  static let extremes: [Constants] = [
    // A natural frequency of 1: usable as given, though `k * m` overflows.
    Constants(mass: 1e300, stiffness: 1e300, damping: 1e300, isReported: false),
    // And one whose `k * m` underflows to 0.
    Constants(mass: 1e-300, stiffness: 1e-300, damping: 1e-300, isReported: false),
    Constants(mass: 1e-300, stiffness: 1e300, damping: 1, isReported: true),
    Constants(mass: 1e300, stiffness: 1e-300, damping: 1, isReported: true),
    Constants(mass: 1, stiffness: 1, damping: 1e300, isReported: true),
    Constants(mass: 1, stiffness: 1, damping: -5, isReported: true),
    Constants(mass: 1, stiffness: 100, damping: 10, velocity: 1e300, isReported: true),
    Constants(
      mass: .leastNonzeroMagnitude, stiffness: .greatestFiniteMagnitude, damping: 0,
      isReported: true),
  ]

  static let times: [Double] = [0.001, 0.5, 1, 1e3, 1e9, 1e300, .infinity]

  /// Every figure a motion reads from `spring` is finite.
  func expectFinite(_ spring: DampedSpring, _ comment: Comment? = nil) {
    #expect(spring.naturalFrequency.isFinite && spring.dampingRatio.isFinite, comment)
    #expect(spring.settlingDuration.isFinite, comment)
    #expect(DampedSpring.naturalFrequencyRange.contains(spring.naturalFrequency), comment)
    #expect(spring.dampingRatio >= DampedSpring.minimumDampingRatio, comment)
    for time in Self.times {
      #expect(spring.value(at: time).isFinite, comment)
      #expect(spring.velocity(at: time).isFinite, comment)
      #expect(spring.impulseResponse(at: time).isFinite, comment)
    }
  }

  @Test(arguments: extremes)
  func extremeConstantsNeverMakeNaN(constants: Constants) {
    let log = DiagnosticLog()
    let line = #line + 2
    let spring = log.capture {
      DampedSpring(
        mass: constants.mass, stiffness: constants.stiffness, damping: constants.damping,
        initialVelocity: constants.velocity)
    }
    expectFinite(spring, "\(constants)")
    #expect(log.count == (constants.isReported ? 1 : 0))
    #expect(log.lines.allSatisfy { $0 == line })
    #expect(log.subsystems.isSubset(of: ["motion"]))
  }

  @Test func aSpringOfTwoHugeConstantsKeepsThemAndLandsAtRest() {
    let spring = DampedSpring(mass: 1e300, stiffness: 1e300, damping: 2e300)
    #expect(spring.mass == 1e300 && spring.stiffness == 1e300)
    #expect(abs(spring.naturalFrequency - 1) < 1e-12 && abs(spring.dampingRatio - 1) < 1e-12)
    #expect(abs(spring.value(at: 100) - 1) < 1e-12)
  }

  @Test func negativeDampingIsReportedAndRaisedToTheMinimumRatio() {
    let log = DiagnosticLog()
    let spring = log.capture { DampedSpring(mass: 1, stiffness: 100, damping: -3) }
    #expect(abs(spring.dampingRatio - DampedSpring.minimumDampingRatio) < 1e-12)
    #expect(log.messages.count == 1 && log.messages[0].contains("negative damping"))
  }

  @Test(arguments: [
    // A damping of 1 on constants of 1e300 is a ratio of 5e-301: raised to 2e298.
    (1e300, 1e300, 1.0), (1e-300, 1e-300, 0.0), (1, 100, 0.0), (1e150, 1e150, 1.0),
  ])
  func aDampingRaisedToTheMinimumRatioIsReportedWithWhenItSettles(
    constants: (Double, Double, Double)
  ) throws {
    let log = DiagnosticLog()
    let line = #line + 2
    let spring = log.capture {
      DampedSpring(mass: constants.0, stiffness: constants.1, damping: constants.2)
    }
    #expect(abs(spring.dampingRatio - DampedSpring.minimumDampingRatio) < 1e-9)
    #expect(log.lines == [line])
    let message = try #require(log.messages.first)
    #expect(message.contains("never comes to rest"))
    expectSettles(spring, within: message)
  }

  @Test(arguments: [
    (1e300, 1e-300, 0.0, 0.0), (1e-300, 1e300, 1.0, 0.0), (1, 100, 10, 1e308),
    (1, 1, 1e300, 0.0),
  ])
  func everyReplacementSaysWhenTheSpringMadeInsteadSettles(
    constants: (Double, Double, Double, Double)
  ) throws {
    let log = DiagnosticLog()
    let spring = log.capture {
      DampedSpring(
        mass: constants.0, stiffness: constants.1, damping: constants.2,
        initialVelocity: constants.3)
    }
    let message = try #require(log.messages.first)
    #expect(log.count == 1)
    expectSettles(spring, within: message)
  }

  /// The report names the spring's settling duration, and from then on the spring stays
  /// within the tolerance of its end.
  func expectSettles(_ spring: DampedSpring, within message: String) {
    let duration = spring.settlingDuration
    #expect(duration.isFinite && duration > 0)
    #expect(message.contains("settles within \(duration) s"), "\(message)")
    for factor in [1.0, 1.5, 2, 10, 1e3] {
      #expect(
        abs(spring.value(at: duration * factor) - 1) <= DampedSpring.settlingTolerance,
        "\(spring) at \(duration * factor) s")
    }
  }

  @Test(arguments: [1e300, -1e300, Double.greatestFiniteMagnitude])
  func aProjectionPastTheLongestIsHeldThereAndSaysSo(velocity: Double) throws {
    let rate = try #require(DecelerationRate(rawValue: 1 - 1e-15))
    let projection = rate.projection(of: velocity)
    #expect(projection.isFinite)
    #expect(abs(projection) == DecelerationRate.maximumProjection)
    #expect(rate.holdsProjection(of: velocity))
    #expect(!DecelerationRate.normal.holdsProjection(of: 1_000))
    #expect(DecelerationRate.normal.projection(of: .infinity) == 0)
  }

  @Test(arguments: [1e300, 1e-300, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude])
  func extremeFrequenciesAreBroughtToTheNearestBound(hertz: Double) {
    let log = DiagnosticLog()
    let line = #line + 1
    let spring = log.capture { DampedSpring(frequency: hertz, dampingRatio: 0.5) }
    expectFinite(spring)
    let bound =
      hertz > 1
      ? DampedSpring.naturalFrequencyRange.upperBound
      : DampedSpring.naturalFrequencyRange.lowerBound
    #expect(abs(spring.naturalFrequency / bound - 1) < 1e-9)
    #expect(log.count >= 1 && log.lines.allSatisfy { $0 == line })
  }

  @Test(arguments: [1e-300, 1e300])
  func extremeResponsesAndDurationsAreBroughtToTheNearestBound(seconds: Double) {
    let log = DiagnosticLog()
    let springs = log.capture {
      [
        DampedSpring(response: seconds, dampingRatio: 0.7),
        DampedSpring(duration: seconds, bounce: 0.2),
      ]
    }
    for spring in springs { expectFinite(spring) }
    #expect(log.count == 2)
  }

  @Test func aHugeVelocityIsHeldAtTheMaximum() {
    let log = DiagnosticLog()
    let spring = log.capture { DampedSpring.snappy.withInitialVelocity(-1e300) }
    #expect(spring.initialVelocity == -DampedSpring.maximumInitialVelocity)
    #expect(log.count == 1)
    expectFinite(spring)
    #expect(
      DampedSpring.unitVelocity(pointsPerSecond: 1e300, distance: 1e-10)
        == DampedSpring.maximumInitialVelocity)
  }

  @Test func usableConstantsAreKeptExactlyAndNotReported() {
    let log = DiagnosticLog()
    let spring = log.capture {
      DampedSpring(mass: 2, stiffness: 300, damping: 9, initialVelocity: 3)
    }
    #expect(log.count == 0)
    #expect(spring.mass == 2 && spring.stiffness == 300 && spring.damping == 9)
    #expect(spring.initialVelocity == 3)
  }
}
