/// A request a scheduler refuses because it could never be carried out sensibly.
public enum SchedulingError: Error, Equatable, CustomStringConvertible {
  /// A repeating timer was asked to fire every `interval`, which is zero or negative.
  ///
  /// Such a timer would fire without end at a single instant, so it is rejected instead.
  case nonPositiveInterval(Duration)

  /// A sentence that says what was wrong and what to do instead.
  public var description: String {
    switch self {
    case .nonPositiveInterval(let interval):
      "A repeating timer needs a positive interval, but it was asked to repeat every "
        + "\(interval); use a duration greater than zero."
    }
  }
}
