import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

private let square = CGRect(x: 0, y: 0, width: 100, height: 100)

@MainActor @Suite("The rubber band past the bounds")
struct RubberBandTests {
  /// Wave's published curve, written out independently of the library.
  private func waveOffset(_ x: Double, _ d: Double, c: Double = 0.55) -> Double {
    (1 - 1 / (x * c / d + 1)) * d
  }

  @Test(
    "The band's offset is Wave's closed form with c = 0.55",
    arguments: [(1.0, 100.0), (80, 100), (100, 320), (500, 320), (10_000, 50)])
  func rubberBandMatchesTheClosedForm(overshoot: Double, dimension: Double) {
    let band = RubberBand.standard
    #expect(band.coefficient == 0.55)
    let offset = band.offset(forOvershoot: overshoot, dimension: dimension)
    #expect(abs(offset - waveOffset(overshoot, dimension)) < 1e-12)
    #expect(offset > 0 && offset < min(overshoot, dimension), "resists, and never reaches d")
    #expect(band.offset(forOvershoot: -overshoot, dimension: dimension) == -offset, "odd")
    let back = band.overshoot(forOffset: offset, dimension: dimension)
    #expect(abs(back - overshoot) <= 1e-9 * max(overshoot, 1), "the inverse undoes it")
  }

  @Test("The documented example's figure is the formula's")
  func rubberBandDocumentedExample() {
    // RubberBand's doc comment: `offset(forOvershoot: 100, dimension: 320)  // 46.93 points`.
    let offset = RubberBand.standard.offset(forOvershoot: 100, dimension: 320)
    #expect((offset * 100).rounded() / 100 == 46.93)
  }

  @Test("The band follows the finger at c of its speed at the edge, and flattens beyond")
  func rubberBandSlopeStartsAtTheCoefficient() {
    let band = RubberBand(coefficient: 0.3)
    let small = 1e-6
    #expect(abs(band.offset(forOvershoot: small, dimension: 200) / small - 0.3) < 1e-6)
    let near =
      band.offset(forOvershoot: 20, dimension: 200) - band.offset(forOvershoot: 10, dimension: 200)
    let far =
      band.offset(forOvershoot: 1_010, dimension: 200)
      - band.offset(forOvershoot: 1_000, dimension: 200)
    #expect(far < near / 2)
    #expect(band.offset(forOvershoot: 50, dimension: 0) == 0, "an axis of dimension zero is stiff")
    #expect(band.clamp(130, to: 0...100, dimension: 100) == 100 + waveOffset(30, 100, c: 0.3))
    #expect(band.clamp(-30, to: 0...100, dimension: 100) == -waveOffset(30, 100, c: 0.3))
    #expect(band.clamp(42, to: 0...100, dimension: 100) == 42)
  }

  /// A card at (50, 50), made draggable with `band`, grabbed at its centre and dragged to
  /// `finger` for one frame.
  private func cardDragged(
    to finger: CGPoint, bounds: CGRect = square, band: RubberBand? = .standard,
    damping: Double = 0.5, in virtual: VirtualWorld
  ) -> Card {
    let card = Card(at: CGPoint(x: 50, y: 50))
    card.makeDraggable(
      snap: .snap(damping: damping), bounds: bounds, rubberBand: band, world: virtual.world)
    card.drag(.began(at: CGPoint(x: 50, y: 50)))
    card.drag(.changed(to: finger))
    virtual.frames(1)
    return card
  }

  @Test("Dragged past its bounds, the object resists as a scroll view, and springs back inside")
  func dragPastBoundsStretchesAndSpringsBack() {
    let virtual = VirtualWorld()
    let card = cardDragged(to: CGPoint(x: 180, y: -40), damping: 1, in: virtual)
    #expect(abs(Double(card.center.x) - (100 + waveOffset(80, 100))) < 1e-9)
    #expect(abs(Double(card.center.y) - -waveOffset(40, 100)) < 1e-9)
    card.drag(.ended(velocity: .zero))
    var wasInside = false
    while virtual.world.needsFrames {
      virtual.frames(1)
      wasInside = wasInside || (card.center.x <= 100 && card.center.y >= 0)
    }
    #expect(wasInside)
    #expect(card.center == CGPoint(x: 50, y: 50))
  }

  @Test("Without a band, walls stop the finger's object dead at the bounds")
  func withoutABandWallsHold() {
    let virtual = VirtualWorld()
    let card = cardDragged(to: CGPoint(x: 180, y: 50), band: nil, in: virtual)
    #expect(card.dragController?.body.rubberBand == nil)
    #expect(card.center.x == 100)
  }

  @Test("Grabbed again while stretched, the object stays where it shows")
  func regrabbingAStretchedObjectDoesNotJump() {
    let virtual = VirtualWorld()
    let card = cardDragged(to: CGPoint(x: 260, y: 50), in: virtual)
    card.drag(.ended(velocity: .zero))
    virtual.frames(3)
    let shown = card.center
    #expect(shown.x > 100, "still outside, springing back")
    card.drag(.began(at: shown))
    virtual.frames(1)
    #expect(abs(Double(card.center.x - shown.x)) < 1e-9)
    card.drag(.changed(to: CGPoint(x: shown.x + 10, y: shown.y)))
    virtual.frames(1)
    let moved = Double(card.center.x - shown.x)
    #expect(moved > 0 && moved < 10, "the band still resists")
  }

  @Test("A bounds axis of size zero is a track: the band does not stretch across it")
  func zeroSizedAxisDoesNotStretch() {
    let virtual = VirtualWorld()
    let card = cardDragged(
      to: CGPoint(x: 120, y: 90), bounds: CGRect(x: 0, y: 50, width: 100, height: 0), in: virtual)
    #expect(card.center.y == 50)
    #expect(abs(Double(card.center.x) - (100 + waveOffset(20, 100))) < 1e-9)
  }

  @Test("Explicit band dimensions replace the bounds' size")
  func explicitDimensions() {
    let virtual = VirtualWorld()
    let card = cardDragged(
      to: CGPoint(x: 150, y: 50), band: RubberBand(dimensions: CGSize(width: 400, height: 400)),
      in: virtual)
    #expect(abs(Double(card.center.x) - (100 + waveOffset(50, 400))) < 1e-9)
  }

  @Test("An unusable band is reported and replaced by the defaults")
  func unusableBandIsReported() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    let log = DiagnosticLog.capture {
      body.rubberBand = RubberBand(
        coefficient: -1, dimensions: CGSize(width: Double.nan, height: 1))
    }
    #expect(log.messages.count == 2)
    #expect(log.subsystems == ["drag"])
    #expect(body.rubberBand == .standard)
  }
}
