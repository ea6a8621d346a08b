import Affix
import Testing

@Suite struct LockedStateTests {
  @Test func concurrentUpdatesUnderTheLockAreNeverLost() async {
    let counter = LockedState(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
        }
      }
    }
    #expect(counter.withLock { $0 } == 8_000)
  }

  @Test func withLockReturnsWhatItsBodyReturnsAndRethrows() {
    struct Refused: Error {}
    let state = LockedState([1, 2])
    #expect(state.withLock { $0.removeLast() } == 2)
    #expect(throws: Refused.self) { try state.withLock { _ in throw Refused() } }
    #expect(state.withLock { $0 } == [1])
  }
}

@Suite struct AnyWeakReferenceTests {
  /// Not `Sendable`, as most hosts are not.
  final class View {}

  @Test func itDoesNotKeepItsObjectAliveAndReadsNilAfter() {
    var view: View? = View()
    let reference = AnyWeakReference(view)
    #expect(reference.object === view)
    view = nil
    #expect(reference.object == nil)
    #expect(reference.description == "WeakReference(nil)")
  }

  @Test func itCrossesThreadsForANonSendableObject() async {
    let view = View()
    let reference = AnyWeakReference(view)
    let alive = await Task.detached { reference.object != nil }.value
    #expect(alive)
    withExtendedLifetime(view) {}
  }
}
