internal import AffixRuntimeShims

/// What the read sections of lock-free object reads run on, for tests and diagnostics (see
/// `AssociationStorage.retainedPayloadBits(for:)` and "Reading objects without a lock" in
/// Docs/Internals/Reads.md).
package enum ReadSections {
  /// Whether a read section enters with a plain store and a compiler barrier, the reclaimer's
  /// `membarrier` supplying the other half of the fence (Linux, unless registration failed or
  /// `AFFIX_READ_FENCE=full` is set); false when every section fences fully.
  package static var useAsymmetricFence: Bool {
    affix_reads_use_asymmetric_fence()
  }

  /// How many reader records exist, and how many threads hold one now. A thread takes one on
  /// its first object read and gives it back when it exits, so records are as many as the most
  /// threads that have read at once.
  package static var readerRecords: (total: Int, inUse: Int) {
    var total = 0
    var inUse = 0
    affix_reader_record_counts(&total, &inUse)
    return (total, inUse)
  }
}

/// What a read may do on its thread: the promise to signal handlers (Docs/Platforms.md,
/// "Signals").
///
/// A read that finds a storage's or the table's version odd retries, then waits: for the lock,
/// or for the table's chunk to end. If its own thread is the writer (a signal handler that
/// interrupted a write of the core), the version stays odd until the handler returns, and the
/// read would wait forever. No user code runs inside a write, so a read on a thread inside one
/// comes from a handler: a debug build stops there with a message instead of hanging. Release
/// builds count nothing and pay nothing.
package enum ReadSafety {
  /// Whether this thread is inside a write of the core; always false in release builds.
  package static var threadIsInsideWrite: Bool {
    #if DEBUG
      affix_is_inside_write()
    #else
      false
    #endif
  }

  /// Stops a debug build at a read that would wait for its own thread's write.
  static func checkThreadIsNotInsideWrite() {
    #if DEBUG
      if affix_is_inside_write() {
        fatalError(
          "Affix: an associated value was read on a thread inside a write of the library, "
            + "which the read would wait for forever: a signal handler interrupted the write. "
            + "A handler may read only on a thread that was not writing (Docs/Platforms.md, "
            + "\"Signals\").")
      }
    #endif
  }
}
