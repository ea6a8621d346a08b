public import Affix
import AffixScheduling

extension DynamicBody {
  /// Calls `handler` each time the body comes to rest: placed on its target, it stops stepping.
  ///
  /// The world already knows when a body rests, so an app can chain work on it without
  /// polling: show the next card when a thrown one has landed, enable a button when a sheet
  /// has settled on its detent. The handler runs after the frame that placed the body has
  /// written it to its host, in the isolation it was written in (as a move handler: at once
  /// on the main queue for a main-actor handler and ``DynamicsWorld/shared``, else later on
  /// the main actor; on another actor, later on it). Announcements reach the
  /// handlers of a body in the order the changes happened, never under the world's lock.
  ///
  /// The registration lasts while the returned token lives and the body is in its world:
  /// cancel or drop the token to stop. A body that has left its world is reported as a
  /// diagnostic and gets a cancelled token. The world keeps the handler while the body is in
  /// it: capture the dragged object weakly, or it keeps itself, and its body, alive.
  ///
  /// ```swift
  /// let landed = card.dragController!.body.onRest { deck.showNext() }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where `handler` runs; the caller's isolation unless given.
  ///   - handler: Called once for each time the body comes to rest.
  /// - Returns: The token that keeps the registration.
  public func onRest(
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping () -> Void
  ) -> CancellationToken {
    observe(.rest, IsolatedCallback(isolation: isolation) { handler() })
  }

  /// Calls `handler` each time the body leaves rest: a fling, a snap, a grab or a move of the
  /// finger wakes it and it starts stepping.
  ///
  /// The handler runs right after the call that woke the body returns from the world, as
  /// `onRest(_:)`'s does.
  /// Rest and wake announcements of a body alternate, starting with whichever comes first
  /// after the registration.
  ///
  /// ```swift
  /// let moving = body.onWake { hint.isHidden = true }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where `handler` runs; the caller's isolation unless given.
  ///   - handler: Called once for each time the body leaves rest.
  /// - Returns: The token that keeps the registration.
  public func onWake(
    isolation: isolated (any Actor)? = #isolation, _ handler: @escaping () -> Void
  ) -> CancellationToken {
    observe(.wake, IsolatedCallback(isolation: isolation) { handler() })
  }

  func observe(_ change: RestObserver.Change, _ handler: IsolatedCallback<Void>)
    -> CancellationToken
  {
    let observerID = world.state.withLock { state in
      state.addRestObserver(body: id, change: change, handler: handler)
    }
    guard let observerID else {
      diagnose("cannot observe the body's rest: the body has left its world")
      return .cancelled()
    }
    return CancellationToken { [weak world] in
      let observer = world?.state.withLock { $0.removeRestObserver(observerID) }
      // The handler, and what it captures, are released here, outside the lock.
      withExtendedLifetime(observer) {}
    }
  }
}
