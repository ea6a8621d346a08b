import Affix
import AffixTestSupport
import Testing

/// `observe(_:initial: true)` delivers the current value first, then each change; and
/// `observerCount(of:)` shows an observation come and go.
@Suite struct ObserveInitialValueTests {
  enum Number: AssociatedKey { static let defaultValue = 0 }

  @MainActor final class Label {
    var shown: [Int] = []
  }

  actor Tally {
    var values: [Int] = []
    var token: CancellationToken?

    func watch(_ host: Host) {
      token = Associations(of: host).observe(Number.self, initial: true) { self.values.append($0) }
    }
  }

  @Test func aNonisolatedObserverGetsTheCurrentValueAtOnceThenEachChange() {
    let host = Host()
    Associations(of: host)[Number.self] = 4
    let seen = Recording<Int>()
    let token = Associations(of: host).observe(
      Number.self, initial: true,
      nonisolated: {
        seen.append($0)
      })
    #expect(seen.values == [4], "delivered inside observe, on the calling thread")
    Associations(of: host)[Number.self] = 5
    #expect(seen.values == [4, 5])
    token.cancel()
  }

  @Test func withoutInitialNothingIsDeliveredBeforeAChange() {
    let host = Host()
    Associations(of: host)[Number.self] = 4
    let seen = Recording<Int>()
    let token = Associations(of: host).observe(Number.self, nonisolated: { seen.append($0) })
    #expect(seen.values.isEmpty)
    token.cancel()
  }

  @MainActor @Test func aMainActorObserverGetsTheCurrentValueFirstOnTheMainActor() async {
    let host = Host()
    let label = Label()
    let token = Associations(of: host).observe(Number.self, initial: true) {
      label.shown.append($0)
    }
    await Task.detached { Associations(of: host)[Number.self] = 1 }.value
    #expect(await eventually { label.shown == [0, 1] })
    token.cancel()
  }

  @Test func anActorsObserverGetsTheCurrentValueFirstOnTheActor() async {
    let host = Host()
    Associations(of: host)[Number.self] = 9
    let tally = Tally()
    await tally.watch(host)
    Associations(of: host)[Number.self] = 10
    #expect(await eventually { await tally.values == [9, 10] })
  }

  @Test func theObserverCountShowsAnObservationComeAndGo() {
    let host = Host()
    let associations = Associations(of: host)
    #expect(associations.observerCount(of: Number.self) == 0)
    let first = associations.observe(Number.self, nonisolated: { _ in })
    var second: CancellationToken? = associations.observe(Number.self, nonisolated: { _ in })
    #expect(associations.observerCount(of: Number.self) == 2)
    first.cancel()
    #expect(associations.observerCount(of: Number.self) == 1)
    second = nil
    #expect(associations.observerCount(of: Number.self) == 0)
    _ = second
  }
}
