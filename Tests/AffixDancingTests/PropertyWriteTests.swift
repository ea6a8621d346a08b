import AffixDancing
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

/// A host whose animatable properties are computed or observed.
private final class Gauge {
  private var storage = 0.0
  var setterCalls = 0
  var observedWrites = 0

  var computed: Double {
    get { storage }
    set {
      storage = newValue
      setterCalls += 1
    }
  }

  var observed = 0.0 {
    didSet { observedWrites += 1 }
  }
}

private class Shape {
  var x = 0.0
}

private final class Circle: Shape {
  var overrideWrites = 0
  var radius = 1.0

  override var x: Double {
    didSet { overrideWrites += 1 }
  }
}

@MainActor struct PropertyWriteTests {
  @Test func computedPropertyIsWrittenThroughItsSetterEveryFrame() {
    let stage = VirtualFrames()
    let gauge = Gauge()
    Dance.of(gauge, frames: stage.source).animate(duration: 1, curve: .linear) {
      $0.computed = 100
    }.start()
    stage.advance(milliseconds: 500)
    #expect(abs(gauge.computed - 50) < 1e-9)
    let callsAtHalf = gauge.setterCalls
    #expect(callsAtHalf >= 40)
    stage.advance(milliseconds: 600)
    #expect(gauge.computed == 100)
    #expect(gauge.setterCalls > callsAtHalf)
  }

  @Test func observedPropertyRunsItsObserverOnEveryWrite() {
    let stage = VirtualFrames()
    let gauge = Gauge()
    Dance.of(gauge, frames: stage.source).animate(duration: 1, curve: .linear) {
      $0.observed = 10
    }.start()
    stage.advance(milliseconds: 1_100)
    #expect(gauge.observed == 10)
    #expect(gauge.observedWrites >= 90)
  }

  @Test func recordingDoesNotWriteTheHost() {
    let stage = VirtualFrames()
    let gauge = Gauge()
    Dance.of(gauge, frames: stage.source).animate(duration: 1) {
      $0.computed = 100
      $0.observed = 5
    }
    #expect(gauge.setterCalls == 0 && gauge.observedWrites == 0)
    #expect(gauge.computed == 0 && gauge.observed == 0)
  }

  @Test func subclassHostAnimatesInheritedAndOverriddenProperties() {
    let stage = VirtualFrames()
    let circle = Circle()
    Dance.of(circle, frames: stage.source).animate(duration: 1, curve: .linear) {
      $0.x = 40
      $0.radius = 3
    }.start()
    stage.advance(milliseconds: 500)
    #expect(abs(circle.x - 20) < 1e-9 && abs(circle.radius - 2) < 1e-9)
    stage.advance(milliseconds: 600)
    #expect(circle.x == 40 && circle.radius == 3)
    #expect(circle.overrideWrites > 0)
  }

  @Test func subclassSeenAsItsBaseClassWritesThroughTheOverride() {
    let stage = VirtualFrames()
    let circle = Circle()
    let shape: Shape = circle
    Dance.of(shape, frames: stage.source).animate(duration: 1, curve: .linear) {
      $0.x = 8
    }.start()
    stage.advance(milliseconds: 1_100)
    #expect(circle.x == 8)
    #expect(circle.overrideWrites > 0)
  }

  @Test func writingAPropertyTwiceKeepsOneTrackFromTheFirstStart() {
    let stage = VirtualFrames()
    let gauge = Gauge()
    Dance.of(gauge, frames: stage.source).animate(duration: 1, curve: .linear) {
      $0.observed = 50
      $0.observed = $0.observed * 2
    }.start()
    stage.advance(milliseconds: 500)
    #expect(abs(gauge.observed - 50) < 1e-9)
    let writesAtHalf = gauge.observedWrites
    stage.advance(milliseconds: 10)
    // One track: one observed write per frame, not two.
    #expect(gauge.observedWrites == writesAtHalf + 1)
    stage.advance(milliseconds: 600)
    #expect(gauge.observed == 100)
  }
}
