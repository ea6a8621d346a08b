import Testing

@testable import AffixLayout

@Suite struct FrameArithmeticTests {
  @Test func aLengthAndACentreGiveTheOrigin() {
    var arithmetic = FrameArithmetic()
    arithmetic.pin(.width, to: 30)
    arithmetic.pin(.centerX, to: 50)
    arithmetic.pin(.height, to: 10)
    arithmetic.pin(.bottom, to: 100)
    let (frame, clamped) = arithmetic.frame(from: .zero)
    #expect(frame == LayoutRect(x: 35, y: 90, width: 30, height: 10))
    #expect(!clamped)
  }

  @Test func twoEdgesGiveTheLength() {
    var arithmetic = FrameArithmetic()
    arithmetic.pin(.leading, to: 10)
    arithmetic.pin(.trailing, to: 70)
    arithmetic.pin(.top, to: 5)
    arithmetic.pin(.centerY, to: 25)
    #expect(arithmetic.frame(from: .zero).frame == LayoutRect(x: 10, y: 5, width: 60, height: 40))
  }

  @Test func whatNothingPinsKeepsTheCurrentFrame() {
    var arithmetic = FrameArithmetic()
    arithmetic.pin(.leading, to: 4)
    let current = LayoutRect(x: 100, y: 7, width: 20, height: 9)
    #expect(arithmetic.frame(from: current).frame == LayoutRect(x: 4, y: 7, width: 20, height: 9))
  }

  @Test func aLaterValueOfAnAttributeReplacesAnEarlierOne() {
    var arithmetic = FrameArithmetic()
    arithmetic.pin(.width, to: 30)
    arithmetic.pin(.width, to: 12)
    #expect(arithmetic.frame(from: .zero).frame.width == 12)
  }

  @Test func edgesPastEachOtherGiveAZeroLengthAndSaySo() {
    var arithmetic = FrameArithmetic()
    arithmetic.pin(.leading, to: 50)
    arithmetic.pin(.trailing, to: 20)
    let (frame, clamped) = arithmetic.frame(from: .zero)
    #expect(frame == LayoutRect(x: 50, y: 0, width: 0, height: 0))
    #expect(clamped)
  }

  @Test func aNonFiniteCurrentFrameIsReplacedByZeros() {
    let arithmetic = FrameArithmetic()
    let current = LayoutRect(x: .nan, y: .infinity, width: -3, height: .nan)
    #expect(arithmetic.frame(from: current).frame == .zero)
  }

  @Test func aRectReadsEachAttribute() {
    let rect = LayoutRect(x: 10, y: 20, width: 30, height: 40)
    let values = LayoutAttribute.allCases.map { rect.value(of: $0) }
    #expect(values == [10, 40, 25, 30, 20, 60, 40, 40])
  }
}
