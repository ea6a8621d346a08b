// Public although no public API names it: `@inlinable` code below, specialized into callers,
// uses `Atomic`, and inlinable code may only use what is imported publicly.
public import Synchronization

/// A host's overflow entries, those that found both inline entries taken: a capacity word, the
/// buffer this one replaced (or 0), then (key ID, payload bits) pairs, read with relaxed atomic
/// loads under the storage's sequence lock.
///
/// Entries past the storage's overflow count are zero. No key has ID zero, so a reader scans the
/// whole buffer and needs no count. A buffer links to the one it replaced, because a lock-free
/// reader may still be scanning that one: the storage frees the whole chain when it dies, and
/// needs no array of its own to remember them.
@usableFromInline
struct EntryBuffer {
  @usableFromInline
  let words: UnsafeMutablePointer<Atomic<UInt>>

  /// The words before the first entry: the capacity and the link to the replaced buffer.
  @inlinable
  static var headerWords: Int { 2 }

  /// The capacity of the first overflow buffer: a host with three or four values pays for a
  /// 48-byte buffer (a 64-byte heap block) and no more.
  static let firstCapacity = 2

  @inlinable
  init(bits: UInt) {
    // Buffer bits always come from a storage's `overflow` after a check for 0, or from a link.
    words = UnsafeMutablePointer(bitPattern: bits).unsafelyUnwrapped
  }

  /// A zeroed buffer with room for `capacity` entries, linked to the buffer it replaces.
  init(capacity: Int, replacing previous: UInt) {
    let words = UnsafeMutablePointer<Atomic<UInt>>.allocate(
      capacity: Self.headerWords + 2 * capacity)
    words.initialize(to: Atomic(UInt(capacity)))
    (words + 1).initialize(to: Atomic(previous))
    for index in Self.headerWords..<(Self.headerWords + 2 * capacity) {
      (words + index).initialize(to: Atomic(0))
    }
    self.words = words
  }

  var bits: UInt { UInt(bitPattern: words) }

  var capacity: Int { Int(words[0].load(ordering: .relaxed)) }

  /// The buffer this one replaced, or 0.
  var previous: UInt { words[1].load(ordering: .relaxed) }

  /// The capacity of the buffer that replaces a full one of `capacity` entries: 2, then 6 (so
  /// that eight values fit with the two inline ones), then doubling. Always even, which the
  /// reader's scan relies on.
  static func capacity(after capacity: Int) -> Int {
    capacity == 0 ? firstCapacity : max(6, capacity * 2)
  }

  /// The payload bits under `keyID` in the buffer at `bits`, or nil, scanning every entry up to
  /// the buffer's capacity. Stays in bounds on a torn read: any buffer a storage ever had is
  /// still allocated and holds its own capacity.
  @inlinable @inline(__always)
  static func find(_ keyID: UInt, in bits: UInt) -> UInt? {
    let words = EntryBuffer(bits: bits).words
    let end = words + (Self.headerWords &+ 2 &* Int(bitPattern: words[0].load(ordering: .relaxed)))
    var entry = words + Self.headerWords
    // Capacities are even, so entries go two at a time.
    while entry < end {
      if entry[0].load(ordering: .relaxed) == keyID { return entry[1].load(ordering: .relaxed) }
      if entry[2].load(ordering: .relaxed) == keyID { return entry[3].load(ordering: .relaxed) }
      entry += 4
    }
    return nil
  }

  func keyID(at index: Int) -> UInt {
    words[Self.headerWords + 2 * index].load(ordering: .relaxed)
  }

  func payloadBits(at index: Int) -> UInt {
    words[Self.headerWords + 2 * index + 1].load(ordering: .relaxed)
  }

  func setKeyID(_ keyID: UInt, at index: Int) {
    words[Self.headerWords + 2 * index].store(keyID, ordering: .relaxed)
  }

  func setPayloadBits(_ bits: UInt, at index: Int) {
    words[Self.headerWords + 2 * index + 1].store(bits, ordering: .relaxed)
  }

  /// ``setKeyID(_:at:)``, released: never seen before the stores made before it (see
  /// `AssociationStorage.replace(_:with:)`).
  func setKeyIDReleasing(_ keyID: UInt, at index: Int) {
    words[Self.headerWords + 2 * index].store(keyID, ordering: .releasing)
  }

  /// ``setPayloadBits(_:at:)``, released.
  func setPayloadBitsReleasing(_ bits: UInt, at index: Int) {
    words[Self.headerWords + 2 * index + 1].store(bits, ordering: .releasing)
  }

  func copy(from other: EntryBuffer, count: Int) {
    for index in 0..<count {
      setKeyID(other.keyID(at: index), at: index)
      setPayloadBits(other.payloadBits(at: index), at: index)
    }
  }

  /// Frees this buffer and every buffer it replaced. Only for a storage no reader can reach.
  func deallocateChain() {
    var next = bits
    while next != 0 {
      let buffer = EntryBuffer(bits: next)
      next = buffer.previous
      buffer.words.deallocate()
    }
  }
}
