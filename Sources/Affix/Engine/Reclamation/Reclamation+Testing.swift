internal import AffixRuntimeShims

// Hooks for the core's tests and the benchmark: read sections entered by hand, the set-up of
// read sections held under way and failing `membarrier` calls (with the TestSeams trait only),
// and the retirement backlog.

extension ReadSections {
  /// Enters a read section on this thread; pass the token to ``leave(_:)`` on the same thread.
  package static func enter() -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(affix_read_begin())
  }

  /// Leaves the section that `token` entered.
  package static func leave(_ token: UnsafeMutableRawPointer) {
    affix_read_end(token.assumingMemoryBound(to: affix_reader.self))
  }

  /// Whether this thread is inside a read section.
  package static var isInsideSection: Bool {
    affix_inside_read_section()
  }

  /// Whether this thread's record fences fully on entry.
  package static var currentThreadFencesFully: Bool {
    affix_reclamation_test_current_reader_fences_fully()
  }

  #if TestSeams
    /// Runs `body` while the set-up of read sections looks under way, as it does to a signal
    /// handler that interrupts it.
    package static func withSetUpUnderWay<Result>(_ body: () throws -> Result) rethrows -> Result {
      affix_reclamation_test_set_up_under_way(true)
      defer { affix_reclamation_test_set_up_under_way(false) }
      return try body()
    }

    /// Makes the next `count` expedited `membarrier` calls fail with `ENOMEM`.
    package static func failNextMembarriers(_ count: Int) {
      affix_reclamation_test_fail_membarrier(Int32(count))
    }

    /// How many of the failures that ``failNextMembarriers(_:)`` asked for are still to come.
    package static var pendingMembarrierFailures: Int {
      Int(affix_reclamation_test_pending_membarrier_failures())
    }
  #endif
}

/// The retirement of replaced and removed objects, for tests and the benchmark.
package enum RetirementStatistics {
  /// The most a thread releasing its own shard holds besides.
  package static var shardLimit: Int { Retirement.shardLimit }
}
