/// What a lock holds, for the test-support library's retain-path finder.
///
/// `Mirror` could read a ``Locked``'s state only by racing with its owners, and shows the lock
/// as an object of its own on every path. The finder reads the state through this instead: a
/// copy taken under the lock, and walked as if the lock's owner held the state itself.
package protocol LockedStateReflecting: AnyObject {
  /// A copy of the guarded state, taken under the lock.
  var reflectedState: Any { get }
}

extension Locked: LockedStateReflecting {
  package var reflectedState: Any {
    withLock { $0 }
  }
}

extension LockedState: LockedStateReflecting {
  package var reflectedState: Any {
    // A copy for the finder, which only walks it: not the `sending` hand-over of `withLock`.
    lock.lock()
    defer { lock.unlock() }
    return state
  }
}
