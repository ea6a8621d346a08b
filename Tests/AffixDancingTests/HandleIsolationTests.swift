import Affix
import AffixDancing
import AffixScheduling
import AffixTestSupport
import Testing

/// A main-actor view: `Sendable`, so its handle may travel, though its properties may not.
@MainActor final class Lamp {
  var brightness = 1.0
}

/// A handle's calls touch the host only in the isolation its animations run in; from
/// elsewhere they are reported with the caller's line and change nothing.
@MainActor @Suite struct HandleIsolationTests {
  @Test func aMainActorViewsHandleInADetachedTaskIsRefusedAndLeavesTheHostAsItWas() async {
    let frames = VirtualFrames()
    let lamp = Lamp()
    let dance = Dance.of(lamp, frames: frames.source)
      .animate(duration: 1) { $0.brightness = 0 }.pause()
    // Adding animations there does not compile: a key path to a main-actor property is formed
    // on the main actor alone.
    let expectedLine = #line + 3
    let log = await Task.detached {
      DiagnosticLog.capture {
        dance.setProgress(to: 0.5).finish(at: .end).start().pause().setReversed(true)
      }
    }.value
    #expect(lamp.brightness == 1)
    #expect(dance.progress == 0 && dance.state == .active && !dance.isReversed)
    #expect(
      log.messages.map { $0.components(separatedBy: ":").dropFirst().first ?? "" }
        == [
          " setProgress ignored", " finish(at", " start ignored", " pause ignored",
          " setReversed ignored",
        ])
    #expect(log.messages.allSatisfy { $0.contains("outside any actor") })
    #expect(log.messages.allSatisfy { $0.contains("on the main actor") })
    #expect(log.lines.allSatisfy { $0 == expectedLine })
    // On its own actor the same handle works.
    dance.setProgress(to: 0.5)
    #expect(lamp.brightness == 0.5)
  }

  @Test func anotherActorCannotTakeOverAnAnimatingHost() async {
    let frames = VirtualFrames()
    let lamp = Lamp()
    let dance = Dance.of(lamp, frames: frames.source)
      .animate(duration: 1) { $0.brightness = 0 }.start()
    let log = await Elsewhere().pause(dance)
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("called on Elsewhere") == true, "\(log.messages)")
    frames.advance(0.5)
    #expect(dance.isRunning && lamp.brightness < 1)
  }

  @Test func aHostWithNoAnimationTakesTheIsolationOfTheNextAnimate() async {
    let frames = VirtualFrames()
    let lamp = Lamp()
    let dance = Dance.of(lamp, frames: frames.source)
    let log = await Task.detached { DiagnosticLog.capture { dance.pause() } }.value
    // Nothing to pause: the usual report, not an isolation one.
    #expect(log.messages.count == 1 && log.messages.first?.contains("no animation") == true)
    dance.animate(duration: 1) { $0.brightness = 0 }.setProgress(to: 1)
    #expect(lamp.brightness == 0)
  }
}

/// An actor that tries to drive a main-actor view's animation.
private actor Elsewhere {
  func pause(_ dance: Dance<Lamp>) -> DiagnosticLog {
    // Captures `self`, so that the closure runs isolated to this actor.
    DiagnosticLog.capture {
      _ = self
      dance.pause()
    }
  }
}
