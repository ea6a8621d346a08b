/// Which of a host's groups a ``Dance`` handle addresses.
enum GroupSelector: Sendable, Hashable {
  /// The most recently declared group that has not ended.
  case latest
  /// One group, by its id.
  case id(Int)
}
