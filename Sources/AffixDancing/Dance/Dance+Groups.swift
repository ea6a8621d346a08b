extension Dance {
  /// A handle to every group of animations the host has that has not ended, in the order
  /// they were declared; the last is the one `host.dance` addresses.
  ///
  /// A group is one `animate` (or `decay`) and the animations chained after it with `then`.
  /// Each animates its own properties and ends on its own; see
  /// <doc:DancingGuide#Independent-groups>.
  ///
  /// ```swift
  /// for group in card.dance.groups { group.pause() }
  /// ```
  public var groups: [Dance<Host>] {
    dancer.groupIDs.map { Dance(dancer: dancer, group: .id($0)) }
  }
}
