import Affix
import AffixTesting
import Testing

private final class Host {}

/// A capability whose state lives in the library's lock, as every built-in capability's does.
private final class Watcher: Capability {
  struct State {
    var count = 0
    var host: AnyObject?
  }

  let locked = Locked(State())

  func didEnd(_ ending: CapabilityEnding) {}
}

@Suite struct RetainCycleFinderLockedTests {
  @Test func aCycleThroughStateInsideTheLibrarysLockIsFound() throws {
    let host = Host()
    let watcher = Associations(of: host).capability(Watcher.self) { Watcher() }
    watcher.locked.withLock { $0.host = host }
    defer { watcher.locked.withLock { $0.host = nil } }

    let cycle = try #require(RetainCycleFinder.cycle(through: host))
    #expect(cycle.description == "Host -[Watcher]-> Watcher.locked.state.host -> Host")
  }

  @Test func theLockIsLeftFreeAfterTheSearch() {
    let host = Host()
    let watcher = Associations(of: host).capability(Watcher.self) { Watcher() }
    #expect(RetainCycleFinder.cycle(through: host) == nil)
    #expect(watcher.locked.withLock { $0.count } == 0)  // would hang if the lock were held
  }
}
