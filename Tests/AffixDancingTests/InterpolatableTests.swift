import AffixDancing
import Foundation
import Testing

struct InterpolatableTests {
  @Test(arguments: [0.0, 0.25, 0.5, 1.0, -0.5, 1.5])
  func scalarsBlendLinearlyAndExtrapolate(fraction: Double) {
    #expect(Double.interpolate(from: 10, to: 20, fraction: fraction) == 10 + 10 * fraction)
    #expect(Float.interpolate(from: 10, to: 20, fraction: fraction) == Float(10 + 10 * fraction))
    #expect(
      CGFloat.interpolate(from: 10, to: 20, fraction: fraction) == CGFloat(10 + 10 * fraction))
  }

  @Test func geometryBlendsEachComponent() {
    let point = CGPoint.interpolate(
      from: CGPoint(x: 0, y: 10), to: CGPoint(x: 100, y: 30), fraction: 0.25)
    #expect(point == CGPoint(x: 25, y: 15))
    let size = CGSize.interpolate(
      from: CGSize(width: 10, height: 10), to: CGSize(width: 20, height: 50), fraction: 0.5)
    #expect(size == CGSize(width: 15, height: 30))
    let rect = CGRect.interpolate(
      from: CGRect(x: 0, y: 0, width: 10, height: 10),
      to: CGRect(x: 100, y: 200, width: 30, height: 50), fraction: 0.5)
    #expect(rect == CGRect(x: 50, y: 100, width: 20, height: 30))
  }

  @Test func colorsBlendComponentwise() {
    let mid = RGBAColor.interpolate(from: .red, to: .blue, fraction: 0.5)
    #expect(mid == RGBAColor(red: 0.5, green: 0, blue: 0.5, alpha: 1))
    #expect(RGBAColor.interpolate(from: .clear, to: .white, fraction: 1) == .white)
  }

  @Test(arguments: [0.0, 0.3, 0.5, 0.8, 1.0])
  func transformRotationInterpolatesTheAngle(fraction: Double) {
    let value = AffineTransform2D.interpolate(
      from: .identity, to: AffineTransform2D(rotationAngle: .pi), fraction: fraction)
    expectClose(value, AffineTransform2D(rotationAngle: .pi * fraction))
  }

  @Test func transformTakesTheShortWayRound() {
    let from = AffineTransform2D(rotationAngle: 0.9 * .pi)
    let to = AffineTransform2D(rotationAngle: -0.9 * .pi)
    let mid = AffineTransform2D.interpolate(from: from, to: to, fraction: 0.5)
    expectClose(mid, AffineTransform2D(rotationAngle: .pi))
  }

  @Test func transformKeepsScaleTranslationAndShearAtTheEnds() {
    let shear = AffineTransform2D(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0)
    let start = AffineTransform2D(scaleX: 2, y: 3).concatenating(
      AffineTransform2D(rotationAngle: 0.4)
    )
    .concatenating(AffineTransform2D(translationX: 5, y: -7))
    let end = shear.concatenating(AffineTransform2D(scaleX: -1, y: 1))
    expectClose(AffineTransform2D.interpolate(from: start, to: end, fraction: 0), start)
    expectClose(AffineTransform2D.interpolate(from: start, to: end, fraction: 1), end)
    let scaled = AffineTransform2D.interpolate(
      from: AffineTransform2D(scaleX: 1, y: 1), to: AffineTransform2D(scaleX: 3, y: 5),
      fraction: 0.5)
    expectClose(scaled, AffineTransform2D(scaleX: 2, y: 3))
    let moved = AffineTransform2D.interpolate(
      from: .identity, to: AffineTransform2D(translationX: 10, y: 20), fraction: 0.5)
    expectClose(moved, AffineTransform2D(translationX: 5, y: 10))
  }

  @Test func transformMapsPointsLikeCoreGraphics() {
    let turn = AffineTransform2D(rotationAngle: .pi / 2).concatenating(
      AffineTransform2D(translationX: 1, y: 0))
    let point = turn.apply(to: CGPoint(x: 1, y: 0))
    #expect(abs(point.x - 1) < 1e-12 && abs(point.y - 1) < 1e-12)
  }

  @Test func userTypesAdoptWithOneFunction() {
    struct Temperature: Interpolatable, Equatable {
      var celsius: Double
      static func interpolate(from start: Self, to end: Self, fraction: Double) -> Self {
        Temperature(
          celsius: .interpolate(from: start.celsius, to: end.celsius, fraction: fraction))
      }
    }
    let value = Temperature.interpolate(
      from: Temperature(celsius: 0), to: Temperature(celsius: 100), fraction: 0.3)
    #expect(value == Temperature(celsius: 30))
  }

  private func expectClose(
    _ actual: AffineTransform2D, _ expected: AffineTransform2D,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let pairs = [
      (actual.a, expected.a), (actual.b, expected.b), (actual.c, expected.c),
      (actual.d, expected.d), (actual.tx, expected.tx), (actual.ty, expected.ty),
    ]
    for (lhs, rhs) in pairs {
      #expect(abs(lhs - rhs) < 1e-9, "\(actual) != \(expected)", sourceLocation: sourceLocation)
    }
  }
}
