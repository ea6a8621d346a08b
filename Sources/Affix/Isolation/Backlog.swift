/// How much work waits in a queue now, and the most that ever waited at once.
///
/// The one figure every bounded queue of the package reports: an ``IsolatedCallback``'s calls
/// waiting for their isolation, and, in the mixins, the frames, moves and indicator calls
/// waiting for a busy host. A test or a benchmark reads ``peak`` after a burst to show that
/// the queue stayed bounded however fast it was fed.
///
/// ```swift
/// #expect(repaint.backlog.peak <= 1)
/// ```
public struct Backlog: Sendable, Hashable, CustomStringConvertible {
  /// How many items wait now.
  public let now: Int
  /// The most items that ever waited at once.
  public let peak: Int

  /// A backlog of `now` waiting items, `peak` at most so far.
  public init(now: Int, peak: Int) {
    self.now = now
    self.peak = peak
  }

  /// `"<now> waiting, peak <peak>"`.
  public var description: String { "\(now) waiting, peak \(peak)" }
}
