internal import AffixRuntimeShims
import Synchronization

/// The writer's half of the seqlock that guards what lock-free readers load: a version word,
/// odd while a write is under way. Written once, for the host table and each host's storage.
///
/// A reader loads the version (acquiring), reads, and loads it again: it keeps what it read
/// only if the two are equal and even (see Docs/Internals/Reads.md). A writer, holding the
/// lock that orders writers, brackets its change with these two calls.
extension Atomic where Value == UInt {
  /// Makes the version odd before a write: the fence orders the increment before the write's
  /// stores, so a reader that sees any of them sees the odd version on its second load.
  @inline(__always)
  func beginWrite() {
    #if DEBUG
      affix_write_began()
    #endif
    let current = load(ordering: .relaxed)
    store(current &+ 1, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
  }

  /// Makes the version even again after a write, released after the write's stores.
  @inline(__always)
  func endWrite() {
    let current = load(ordering: .relaxed)
    store(current &+ 1, ordering: .releasing)
    #if DEBUG
      affix_write_ended()
    #endif
  }
}
