public import Synchronization

/// A host's entries: a capacity word, then (key ID, payload bits) pairs, read with relaxed
/// atomic loads under the storage's sequence lock.
///
/// A buffer always has room for at least two entries, and entries past the storage's count are
/// zero. No key has ID zero, so a reader scans the whole buffer and needs neither a null check
/// nor the count.
@usableFromInline
struct EntryBuffer {
  @usableFromInline
  let words: UnsafeMutablePointer<Atomic<UInt>>

  @inlinable
  init(bits: UInt) {
    // Buffer bits always come from a storage's `buffer`, which is never 0.
    words = UnsafeMutablePointer(bitPattern: bits).unsafelyUnwrapped
  }

  init(capacity: Int) {
    let words = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 1 + 2 * capacity)
    words.initialize(to: Atomic(UInt(capacity)))
    for index in 1...(2 * capacity) {
      (words + index).initialize(to: Atomic(0))
    }
    self.words = words
  }

  var bits: UInt { UInt(bitPattern: words) }

  var capacity: Int { Int(words[0].load(ordering: .relaxed)) }

  /// The payload bits under `keyID` in the buffer at `bits`, or nil, scanning every entry up to
  /// the buffer's capacity. Stays in bounds on a torn read: any buffer a storage ever had is
  /// still allocated and holds its own capacity.
  @inlinable @inline(__always)
  static func find(_ keyID: UInt, in bits: UInt) -> UInt? {
    let words = EntryBuffer(bits: bits).words
    // Every buffer has room for two entries; most hosts have no more, so those two are read
    // before the capacity is.
    if words[1].load(ordering: .relaxed) == keyID { return words[2].load(ordering: .relaxed) }
    if words[3].load(ordering: .relaxed) == keyID { return words[4].load(ordering: .relaxed) }
    let capacity = Int(bitPattern: words[0].load(ordering: .relaxed))
    var index = 2
    while index < capacity {
      if words[1 &+ 2 &* index].load(ordering: .relaxed) == keyID {
        return words[2 &+ 2 &* index].load(ordering: .relaxed)
      }
      index &+= 1
    }
    return nil
  }

  func index(of keyID: UInt, count: Int) -> Int? {
    (0..<count).first { self.keyID(at: $0) == keyID }
  }

  func keyID(at index: Int) -> UInt {
    words[1 + 2 * index].load(ordering: .relaxed)
  }

  func payloadBits(at index: Int) -> UInt {
    words[2 + 2 * index].load(ordering: .relaxed)
  }

  func setKeyID(_ keyID: UInt, at index: Int) {
    words[1 + 2 * index].store(keyID, ordering: .relaxed)
  }

  func setPayloadBits(_ bits: UInt, at index: Int) {
    words[2 + 2 * index].store(bits, ordering: .relaxed)
  }

  func copy(from other: EntryBuffer, count: Int) {
    for index in 0..<count {
      setKeyID(other.keyID(at: index), at: index)
      setPayloadBits(other.payloadBits(at: index), at: index)
    }
  }

  /// Drops the buffer's references to its object payloads.
  func releasePayloads(count: Int) {
    for index in 0..<count where !KeyID.isInline(keyID(at: index)) {
      // Object payloads are retained addresses.
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: payloadBits(at: index))!)
        .release()
    }
  }

  func deallocate() {
    words.deallocate()
  }
}
