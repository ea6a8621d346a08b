import Affix
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@testable import AffixDancing

/// The rows of `Docs/BadInput.md` for AffixDancing's timing and values.
@MainActor @Suite struct DancingBadInputTests {
  @Test(arguments: [false, true])
  func aRepeatTooShortForTheClockEndsEveryFrame(autoreverses: Bool) {
    let stage = ClockedBox(framesPerSecond: 100)
    stage.dance.animate(duration: 1e-300, curve: .linear) { $0.x = 100 }
      .repeatingForever(autoreverses: autoreverses).start()
    // Before the bound, this frame never returned: the next repeat began where the last ended,
    // 1e-300 s later, which rounding leaves at the same instant.
    stage.advance(milliseconds: 30)
    #expect(stage.box.x.isFinite && (0...100).contains(stage.box.x))
    #expect(stage.dance.state == .active)
    stage.dance.stop()
  }

  @Test(arguments: [Int.max - 1, Int.max / 2])
  func aHugeRepeatCountOfTinyRepeatsNeitherTrapsNorLoops(count: Int) {
    let stage = ClockedBox(framesPerSecond: 100)
    let ended = Recording<AnimatingPosition>()
    stage.dance.animate(duration: 1e-300, curve: .linear) { $0.x = 100 }
      .repeating(count: count).addCompletion { ended.append($0) }.start()
    stage.advance(milliseconds: 50)
    #expect(ended.values == [.end])
    #expect(stage.box.x == 100)
  }

  @Test func theEngineBoundsTheTraversalsOneAdvanceBegins() throws {
    var engine = AnimationEngine(
      tracks: [AnimationTrack(\Box.x, from: 0, to: 100)], timing: .curve(.linear),
      duration: 1e-300)
    try engine.setRepeat(count: nil, autoreverses: false)
    _ = try engine.start(at: 1)
    let effects = engine.advance(to: 2)
    #expect(engine.state == .active)
    // Whole repeats a frame spans are skipped in one go: this frame needs no cut.
    #expect(!effects.cutTraversals)
    #expect(AnimationEngine.maximumTraversalsPerAdvance == 1000)
  }

  @Test(arguments: [
    (-1e308, 1e308), (1e308, -1e308), (-Double.greatestFiniteMagnitude, .greatestFiniteMagnitude),
  ])
  func interpolatingBetweenHugeEndpointsEndsAtTheTarget(endpoints: (Double, Double)) {
    let (start, end) = endpoints
    #expect(Double.interpolate(from: start, to: end, fraction: 1) == end)
    #expect(Double.interpolate(from: start, to: end, fraction: 0) == start)
    for fraction in stride(from: -0.5, through: 1.5, by: 0.25) {
      #expect(Double.interpolate(from: start, to: end, fraction: fraction).isFinite)
      #expect(
        CGFloat.interpolate(from: CGFloat(start), to: CGFloat(end), fraction: fraction).isFinite)
    }
    #expect(abs(Double.interpolate(from: start, to: end, fraction: 0.5)) < 1e300)
    #expect(
      Float.interpolate(from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude, fraction: 1)
        == .greatestFiniteMagnitude)
    #expect(
      Float.interpolate(
        from: -.greatestFiniteMagnitude, to: .greatestFiniteMagnitude, fraction: 0.5
      ).isFinite)
  }

  @Test(arguments: [1e308, Double.greatestFiniteMagnitude])
  func transformsWithHugeEntriesInterpolateToFiniteTransforms(huge: Double) {
    let start = AffineTransform2D(a: -huge, b: huge, c: 0, d: 1, tx: -huge, ty: huge)
    let end = AffineTransform2D(a: huge, b: -huge, c: 1, d: 0, tx: huge, ty: -huge)
    for fraction in stride(from: -0.5, through: 1.5, by: 0.25) {
      let blended = AffineTransform2D.interpolate(from: start, to: end, fraction: fraction)
      let entries = [blended.a, blended.b, blended.c, blended.d, blended.tx, blended.ty]
      #expect(entries.allSatisfy { $0.isFinite }, "\(blended) at \(fraction)")
    }
    #expect(AffineTransform2D.interpolate(from: start, to: end, fraction: 1) == end)
    // Usable transforms still blend their rotation, not their entries.
    let quarter = AffineTransform2D.interpolate(
      from: .identity, to: AffineTransform2D(rotationAngle: .pi / 2), fraction: 0.5)
    #expect(abs(quarter.a - cos(Double.pi / 4)) < 1e-12)
  }

  @Test(arguments: [1e308, -1e308, Double.greatestFiniteMagnitude])
  func aBezierWithAHugeControlPointStaysFinite(y: Double) {
    let curve = CubicBezier(x1: 0.5, y1: y, x2: 0.5, y2: -y)
    #expect(abs(curve.y1) == 1e300 && abs(curve.y2) == 1e300)
    for time in stride(from: 0.0, through: 1.0, by: 0.125) {
      #expect(curve.value(at: time).isFinite)
    }
    #expect(CubicBezier(x1: 0.5, y1: -2, x2: 0.5, y2: 3).y1 == -2)
    let stage = ClockedBox(framesPerSecond: 100)
    let log = DiagnosticLog()
    let line = #line + 2
    log.capture {
      stage.dance.animate(
        duration: 1, controlPoint1: CGPoint(x: 0.5, y: y), controlPoint2: CGPoint(x: 0.5, y: 1)
      ) { $0.x = 100 }.start()
    }
    #expect(log.count == 1 && log.lines == [line] && log.subsystems == ["dance"])
    for _ in 0..<12 {
      stage.advance(milliseconds: 100)
      #expect(stage.box.x.isFinite)
    }
    #expect(stage.box.x == 100)
  }

  @Test func aLinearAnimationBetweenHugeEndpointsLandsOnItsTarget() {
    let stage = ClockedBox(framesPerSecond: 100)
    stage.box.x = -1e308
    stage.dance.animate(duration: 1, curve: .linear) { $0.x = 1e308 }.start()
    for _ in 0..<12 {
      stage.advance(milliseconds: 100)
      #expect(stage.box.x.isFinite)
    }
    #expect(stage.box.x == 1e308)
  }
}

/// A frame that cut an animation's repeats tells it once, at the line that declared it.
@MainActor @Suite struct RepeatCutReportTests {
  @Test func aCutIsToldOncePerAnimation() throws {
    var state = Dancer.State(clock: VirtualFrames().source)
    let site = CallSite(fileID: "Cards/Deck.swift", line: 42)
    let engine = AnimationEngine(
      tracks: [AnimationTrack(\Box.x, from: 0, to: 100)], timing: .curve(.linear), duration: 1)
    state.append(Dancer.Group(id: 7, engine: engine, tag: 7, declaredAt: site))
    var effects = AnimationEffects()
    effects.cutTraversals = true
    let first = Dancer.settle(effects, engine: engine, group: 0, state: &state, chaining: true)
    let second = Dancer.settle(effects, engine: engine, group: 0, state: &state, chaining: true)
    #expect(first.cut.map(\.tag) == [7] && first.cut.first?.declaredAt.line == 42)
    #expect(second.cut.isEmpty)
    let none = AnimationEffects()
    let quiet = Dancer.settle(none, engine: engine, group: 0, state: &state, chaining: true)
    #expect(quiet.cut.isEmpty)
  }
}
