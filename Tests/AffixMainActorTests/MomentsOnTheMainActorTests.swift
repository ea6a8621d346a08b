import Affix
import AffixTestSupport
import Testing

private enum Joined: HostMoment {}

/// Work recorded on the main actor runs there, whichever thread reaches its moment.
@Suite struct MomentsOnTheMainActorTests {
  @MainActor final class Card {
    var joined: [Bool] = []
  }

  @MainActor @Test func workRecordedOnTheMainActorRunsThereWhenAnotherThreadReaches() async {
    let host = Host()
    let card = Card()
    // Touching `card` compiles only because the work is isolated to the main actor.
    Associations(of: host).whenReached(Joined.self) { card.joined.append(isOnMainQueue()) }
    _ = await Task.detached { Associations(of: host).reach(Joined.self) }.value
    #expect(await eventually { card.joined == [true] })
  }

  @MainActor @Test func reachedOnTheMainQueueTheWorkRunsBeforeReachReturns() {
    let host = Host()
    let card = Card()
    Associations(of: host).whenReached(Joined.self) { card.joined.append(true) }
    Associations(of: host).reach(Joined.self)
    #expect(card.joined == [true])
  }
}

private final class Host: Sendable {}
