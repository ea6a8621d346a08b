import Synchronization

// The read of a storage in the child of a fork, where its lock may be held for ever: the
// thread that held it at the fork does not exist there (see "After fork()" in
// Docs/Internals/Reads.md). Reads elsewhere take the lock when writers keep getting in the way.

/// What a read in the child of a fork found without the storage's lock.
enum ForkChildRead {
  /// The payload bits under the key, or nil: the key's value before or after any write the
  /// read overlapped.
  case found(UInt?)
  /// A thread of the child holds the lock, or did while the read looked: the lock is not one
  /// that a vanished thread holds, and waiting for it ends when that thread's write does.
  case lockHeldByLiveThread
}

extension AssociationStorage {
  /// The payload bits under `keyID` for a read in the child of a fork whose passes under the
  /// version failed, without waiting for a lock that no thread of the child may ever release.
  ///
  /// A thread that held the lock at the fork and does not exist in the child never changes the
  /// storage again: its version, its entries and its lock stay as the fork copied them. The
  /// exception is the payload of an inline entry of a key whose values are inline, which a
  /// write in place changes under the entry lock alone, leaving the version be. So, in the
  /// child:
  /// - A change of the version, or of any other word the read compares, while the read looks
  ///   is the work of a thread of the child holding the lock at that moment. A lock has one
  ///   holder, and a vanished one never lets go: this lock is not stuck, and the caller may
  ///   wait for it.
  /// - An even version that stays put vouches for what it covers, as in every read.
  /// - An odd version that stays put, over two reads of every entry that agree word for word,
  ///   vouches for the entries as they were at one instant between the two reads: within a
  ///   write each word takes each of its values at most once (`replace(_:with:)`), so a word
  ///   read equal twice held that value all along in between. That instant is part way through
  ///   one write, stopped after some of its stores (the vanished writer's for good, or a
  ///   writer of the child's paused), and every such state reads each key as its value before
  ///   the write or after it (argued at `replace(_:with:)`): never torn, never another key's
  ///   payload, never a payload of 0 under a key. A payload read is an object the storage or
  ///   the writer still holds, and the caller retains it inside its read section as usual.
  ///
  /// The payloads that writes in place change are left out of the comparison: each is one
  /// word, read after the key word that says the entry holds the key, so any bits read there
  /// are a value the key held during the read.
  func payloadBitsInChildOfFork(for keyID: UInt) -> ForkChildRead {
    let before = version.load(ordering: .acquiring)
    if before & 1 == 0 {
      let found = find(keyID)
      atomicMemoryFence(ordering: .acquiring)
      return version.load(ordering: .relaxed) == before ? .found(found) : .lockHeldByLiveThread
    }
    let overflowBits = overflow.load(ordering: .acquiring)
    let capacity = overflowBits == 0 ? 0 : EntryBuffer(bits: overflowBits).capacity
    let inlineWords = 4
    return withUnsafeTemporaryAllocation(of: UInt.self, capacity: inlineWords + 2 * capacity) {
      copy in
      // The first read, into `copy`: the two inline entries, then the overflow's entries.
      copy[0] = firstKeyID.load(ordering: .acquiring)
      copy[1] = firstPayload.load(ordering: .acquiring)
      copy[2] = secondKeyID.load(ordering: .acquiring)
      copy[3] = secondPayload.load(ordering: .acquiring)
      let entries =
        overflowBits == 0 ? nil : EntryBuffer(bits: overflowBits).words + EntryBuffer.headerWords
      for index in 0..<(2 * capacity) {
        copy[inlineWords + index] = entries.unsafelyUnwrapped[index].load(ordering: .acquiring)
      }
      // The second read, compared with the first.
      var agrees =
        firstKeyID.load(ordering: .acquiring) == copy[0]
        && (Self.isChangedInPlace(copy[0])
          || firstPayload.load(ordering: .acquiring) == copy[1])
        && secondKeyID.load(ordering: .acquiring) == copy[2]
        && (Self.isChangedInPlace(copy[2])
          || secondPayload.load(ordering: .acquiring) == copy[3])
        && overflow.load(ordering: .acquiring) == overflowBits
      var index = 0
      while agrees && index < 2 * capacity {
        agrees =
          entries.unsafelyUnwrapped[index].load(ordering: .acquiring)
          == copy[inlineWords + index]
        index += 1
      }
      atomicMemoryFence(ordering: .acquiring)
      guard agrees, version.load(ordering: .relaxed) == before else {
        return .lockHeldByLiveThread
      }
      // `find(_:)` on the copy: the inline entries, then the overflow's, the first match.
      for word in stride(from: 0, to: inlineWords + 2 * capacity, by: 2)
      where copy[word] == keyID {
        return .found(copy[word + 1])
      }
      return .found(nil)
    }
  }

  /// Whether an inline entry whose key word is `keyWord` may have its payload changed by a
  /// write in place, which leaves the version alone: an entry of a key whose values are inline,
  /// with a value or without.
  private static func isChangedInPlace(_ keyWord: UInt) -> Bool {
    keyWord != 0 && KeyID.isInline(keyWord)
  }
}
