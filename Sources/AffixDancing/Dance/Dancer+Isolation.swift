import Affix

extension Dancer {
  /// Whether a call made in `caller` may touch the host; reports the call and refuses it when
  /// not.
  ///
  /// Frames write the host in the isolation its animations were declared in. A call that reads
  /// or writes the host (starting, pausing, scrubbing, finishing, adding animations) must run
  /// there too, or it would race the frames and the host's own code: a main-actor view's handle
  /// is `Sendable`, so a detached task can hold it. A host with no animation has no isolation
  /// yet: the next `animate` gives it its caller's.
  func admits(
    _ caller: (any Actor)?, _ call: String, group selector: GroupSelector, at site: CallSite
  ) -> Bool {
    let owner = state.withLock { state -> (any Actor)? in
      state.groups.count == 0 ? nil : state.actor
    }
    guard let owner, owner !== caller else { return true }
    report(
      "\(call) ignored: called \(Self.describe(caller)), but the host's animations run "
        + "\(Self.describe(owner)); call it there", group: selector, at: site)
    return false
  }

  /// Reports `call`, made outside any actor, as refused: the host's frames would have nowhere to
  /// run (see `CallerIsolation`).
  func refuse(_ call: String, group selector: GroupSelector, at site: CallSite) {
    report(CallerIsolation.refusal(of: call), group: selector, at: site)
  }

  /// Where a call runs, for a report: on the main actor, on an actor, or nowhere in particular.
  private static func describe(_ isolation: (any Actor)?) -> String {
    guard let isolation else { return "outside any actor" }
    return isolation === MainActor.shared ? "on the main actor" : "on \(type(of: isolation))"
  }
}
