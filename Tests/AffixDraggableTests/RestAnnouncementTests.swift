import Affix
import AffixDraggable
import AffixScheduling
import AffixTestSupport
import Foundation
import Testing

@MainActor @Suite("Announcements of rest and waking")
struct RestAnnouncementTests {
  @Test("A body announces leaving rest and coming to rest, in order, over a drag and a snap")
  func restAndWakeAreAnnounced() throws {
    let virtual = VirtualWorld()
    let card = Card(at: .zero)
    let body = card.makeDraggable(world: virtual.world).body
    let journal = Recording<String>()
    let resting = body.onRest { journal.append("rest at \(card.center.x)") }
    let waking = body.onWake { journal.append("wake") }
    card.drag(.began(at: .zero))
    #expect(journal.values == ["wake"], "announced before drag(_:) returned")
    card.drag(.changed(to: CGPoint(x: 100, y: 0)))
    virtual.frames(3)
    #expect(journal.values == ["wake", "rest at 100.0"], "held still, the body rests")
    card.drag(.ended(velocity: CGPoint(x: 400, y: 0)))
    virtual.settle()
    #expect(journal.values == ["wake", "rest at 100.0", "wake", "rest at 0.0"])
    withExtendedLifetime((resting, waking)) {}
  }

  @Test("Cancelling or dropping the token stops the announcements")
  func cancelledRegistrationsAreSilent() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    let journal = Recording<String>()
    let cancelled = body.onRest { journal.append("cancelled") }
    cancelled.cancel()
    _ = body.onRest { journal.append("dropped") }
    let kept = body.onRest { journal.append("kept") }
    body.snap(Snap(to: CGPoint(x: 50, y: 0)))
    virtual.settle()
    #expect(journal.values == ["kept"])
    withExtendedLifetime(kept) {}
  }

  @Test("A rest handler that wakes its body hears of it after it returns, not inside")
  func wakingFromARestHandlerIsAnnouncedAfter() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    let journal = Recording<String>()
    let waking = body.onWake { journal.append("wake") }
    let resting = body.onRest {
      journal.append("rest begins")
      if journal.values.filter({ $0 == "rest begins" }).count == 1 {
        body.snap(Snap(to: .zero))
      }
      journal.append("rest ends")
    }
    body.snap(Snap(to: CGPoint(x: 50, y: 0)))
    virtual.settle()
    #expect(
      journal.values == ["wake", "rest begins", "rest ends", "wake", "rest begins", "rest ends"])
    withExtendedLifetime((waking, resting)) {}
  }

  @Test("Observing a body that left its world is reported and gives a cancelled token")
  func observingARemovedBodyIsReported() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    body.remove()
    var token: CancellationToken?
    let log = DiagnosticLog.capture { token = body.onRest {} }
    #expect(log.messages.count == 1)
    #expect(token?.isCancelled == true)
  }

  @Test("Removing a body drops its handlers and what they capture")
  func removalReleasesHandlers() {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    final class Captured: Sendable {}
    weak var weakCaptured: Captured?
    var token: CancellationToken?
    do {
      let captured = Captured()
      weakCaptured = captured
      token = body.onRest { withExtendedLifetime(captured) {} }
    }
    #expect(weakCaptured != nil)
    body.remove()
    #expect(isDeallocated { weakCaptured })
    token?.cancel()
  }

  @Test("A handler written on the main actor runs on the main actor")
  func mainActorRestHandler() async {
    let virtual = VirtualWorld()
    let body = virtual.world.makeBody(at: .zero)
    var heard = 0  // main-actor state, touched only there
    let token = body.onRest {
      MainActor.assertIsolated()
      heard += 1
    }
    body.snap(Snap(to: CGPoint(x: 10, y: 0)))
    _ = await Task.detached { virtual.settle() }.value
    #expect(await eventually { heard > 0 })
    #expect(heard == 1)
    withExtendedLifetime(token) {}
  }
}
