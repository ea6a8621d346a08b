/// The shared table that holds the associated values of every host that does not own its
/// storage; a dead host's values go at the next sweep, in the background or in ``sweep()``. See
/// <doc:MemoryAndThreads#When-values-are-released>.
public enum AssociationTable {
  /// Counts of what the table holds.
  public struct Statistics: Sendable, Equatable, CustomStringConvertible {
    /// Hosts alive with values in the table.
    public var liveHosts = 0
    /// Values attached to live hosts.
    public var entries = 0
    /// Hosts that died and have not been swept yet.
    public var staleHosts = 0
    /// Values of dead hosts, waiting for the next sweep.
    public var staleEntries = 0

    /// Creates statistics with the given counts.
    package init(liveHosts: Int = 0, entries: Int = 0, staleHosts: Int = 0, staleEntries: Int = 0) {
      self.liveHosts = liveHosts
      self.entries = entries
      self.staleHosts = staleHosts
      self.staleEntries = staleEntries
    }

    /// A one-line summary of the counts.
    public var description: String {
      "\(liveHosts) live hosts with \(entries) values, "
        + "\(staleHosts) dead hosts with \(staleEntries) values awaiting a sweep"
    }
  }

  /// Counts the hosts and values in the table now.
  ///
  /// - Complexity: O(*n*) in the table's capacity; meant for diagnostics and tests.
  public static var statistics: Statistics {
    Engine.statistics
  }

  /// Whether the object at `address` has begun its deinit and is held `unowned` beyond the
  /// core's own pins; for the leak checker, which pins the object meanwhile.
  package static func isHeldInDeinit(at address: UnsafeMutableRawPointer) -> Bool {
    Engine.isHeldInDeinit(at: address)
  }

  /// Runs `body` with no background sweep starting meanwhile, so that dead hosts' values wait
  /// for ``sweep()``; for the demo, which shows them waiting. A background sweep that began
  /// before the hold may still finish during it: hold before the hosts to watch die.
  package static func withBackgroundSweepsHeld<Result>(_ body: () throws -> Result) rethrows
    -> Result
  {
    try Engine.withBackgroundSweepsHeld(body)
  }

  /// Takes every dead host off the tables and queues its values for release without waiting
  /// for it; for the benchmark, which times a sweep's two halves apart.
  @discardableResult
  package static func takeDeadHostsOff() -> Int {
    Engine.takeDeadHostsOff()
  }

  /// How long a host may linger in its deinit before a sweep releases its values anyway.
  ///
  /// The time runs from the start of the deinit to the end of every `unowned` reference to the
  /// host; 30 seconds unless set.
  ///
  /// Keep it longer than the slowest deinit that reads its values; a negative grace is refused. See
  /// <doc:MemoryAndThreads#The-deinit-grace>.
  public static var deinitGrace: Duration {
    get { Engine.deinitGrace }
    set { Engine.deinitGrace = newValue }
  }

  /// Releases the values of every host that has died, and every value replaced or removed
  /// since the last release, now, on this thread, and returns how many hosts it swept.
  ///
  /// It waits only for releases begun before it, two seconds at most. See
  /// <doc:MemoryAndThreads#Sweeping-now>.
  ///
  /// - Returns: The number of dead hosts whose values it released.
  /// - Complexity: O(*n*) in the table's capacity, in chunks: a read that misses meanwhile
  ///   waits for one chunk at most.
  @discardableResult
  public static func sweep() -> Int {
    Engine.sweep()
  }
}
