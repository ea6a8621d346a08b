import Affix
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@testable import AffixDancing

/// A host that records every value written to its properties.
private final class Recorder {
  var x = 0.0 { didSet { xs.append(x) } }
  var center = CGPoint.zero { didSet { centers.append(center) } }
  var xs: [Double] = []
  var centers: [CGPoint] = []
}

/// Animation targets and starts that are not finite never reach the host.
@MainActor @Suite struct NonFiniteTargetTests {
  private func run(
    _ host: Recorder, _ animations: @escaping (DanceProxy<Recorder>) -> Void
  ) -> (DiagnosticLog, Int) {
    let frames = VirtualFrames(framesPerSecond: 100)
    let line = #line + 2
    let log = DiagnosticLog.capture {
      Dance.of(host, frames: frames.source).animate(duration: 0.2, curve: .linear, animations)
        .start()
    }
    frames.advance(milliseconds: 300)
    return (log, line)
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aTargetThatIsNotFiniteIsRefusedAndReportedAtTheCallersLine(target: Double) {
    let host = Recorder()
    host.x = 5
    host.xs = []
    let (log, line) = run(host) { $0.x = target }
    #expect(log.lines == [line])
    #expect(log.fileIDs == [#fileID])
    #expect(log.messages.allSatisfy { $0.contains("not finite") })
    #expect(host.xs.isEmpty, "nothing was written")
    #expect(host.x == 5)
  }

  @Test func aPointWithANaNCoordinateIsRefusedAndTheOtherPropertiesStillAnimate() {
    let host = Recorder()
    let (log, _) = run(host) {
      $0.center = CGPoint(x: 10, y: Double.nan)
      $0.x = 100
    }
    #expect(log.count == 1)
    #expect(host.centers.isEmpty)
    #expect(host.xs.allSatisfy { $0.isFinite })
    #expect(host.x == 100)
  }

  @Test func anInfiniteStartIsReplacedByTheTargetAndReported() {
    let host = Recorder()
    host.center = CGPoint(x: Double.infinity, y: .infinity)
    host.x = -.infinity
    host.xs = []
    host.centers = []
    let (log, line) = run(host) {
      $0.x = 0
      $0.center = CGPoint(x: 3, y: 4)
    }
    #expect(log.count == 2)
    #expect(log.lines == [line, line])
    #expect(!host.xs.isEmpty && host.xs.allSatisfy { $0 == 0 }, "the target from the first frame")
    #expect(!host.centers.isEmpty && host.centers.allSatisfy { $0 == CGPoint(x: 3, y: 4) })
  }

  @Test func aStartMadeInfiniteBeforeTheAnimationStartsIsReplacedByTheTarget() {
    let host = Recorder()
    let frames = VirtualFrames(framesPerSecond: 100)
    let dance = Dance.of(host, frames: frames.source).animate(duration: 0.2, curve: .linear) {
      $0.x = 50
    }
    host.x = .nan
    host.xs = []
    let log = DiagnosticLog.capture { dance.start() }
    frames.advance(milliseconds: 300)
    #expect(log.count == 1)
    #expect(!host.xs.isEmpty && host.xs.allSatisfy { $0 == 50 })
  }

  @Test func aValueOfAnotherTypeIsCheckedThroughItsNumbers() {
    struct Temperature: Interpolatable {
      var celsius: Double
      static func interpolate(from start: Self, to end: Self, fraction: Double) -> Self {
        Temperature(celsius: .interpolate(from: start.celsius, to: end.celsius, fraction: fraction))
      }
    }
    #expect(isFiniteValue(Temperature(celsius: 20)))
    #expect(!isFiniteValue(Temperature(celsius: .nan)))
    #expect(!isFiniteValue(RGBAColor(red: .infinity, green: 0, blue: 0)))
    #expect(!isFiniteValue(CGRect(x: 0, y: 0, width: Double.nan, height: 1)))
  }
}
