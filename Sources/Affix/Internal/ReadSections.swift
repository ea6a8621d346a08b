internal import AffixRuntimeShims

/// What the read sections of lock-free object reads run on, for tests and diagnostics (see
/// `AssociationStorage.retainedPayloadBits(for:)` and "Reading objects without a lock" in
/// Docs/Architecture.md).
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
