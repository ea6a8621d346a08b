internal import AffixRuntimeShims
// Public although no public API names it: `@inlinable` code below, specialized into callers,
// uses `Atomic`, and inlinable code may only use what is imported publicly.
public import Synchronization

/// A power-of-two array of (host address, storage) slots, read with relaxed atomic loads.
///
/// Word 0 holds the capacity mask; slot *i* is words 1 + 2*i* (address, 0 when empty) and
/// 2 + 2*i* (an unmanaged, retained storage).
@usableFromInline
struct SlotArray {
  @usableFromInline
  let words: UnsafeMutablePointer<Atomic<UInt>>

  init(capacity: Int) {
    words = .allocate(capacity: 1 + 2 * capacity)
    words.initialize(to: Atomic(UInt(capacity - 1)))
    for index in 1...(2 * capacity) {
      (words + index).initialize(to: Atomic(0))
    }
  }

  @inlinable
  init(bits: UInt) {
    // `bits` always comes from `currentSlots` while the version is even, when it holds a live
    // array's base.
    words = UnsafeMutablePointer(bitPattern: bits).unsafelyUnwrapped
  }

  var bits: UInt { UInt(bitPattern: words) }

  var mask: Int { Int(bitPattern: words[0].load(ordering: .relaxed)) }

  /// The capacity mask in bytes: slot *i* starts `16 * i` bytes past the mask word.
  var offsetMask: UInt { UInt(bitPattern: mask) &<< 4 }

  var capacity: Int { mask + 1 }

  @inlinable @inline(__always)
  static func homeOffset(of address: UInt, offsetMask: UInt) -> UInt {
    // Objects are 16-byte aligned, so the low bits carry nothing. The rest is kept in order,
    // so hosts allocated together sit in neighbouring slots and a loop over them walks the
    // table forward instead of jumping through it; adding the bits above 2 MiB spreads objects
    // that share their low bits (such as page-aligned ones) over the table. Added, not XORed:
    // an XOR would flip the order of the slots within each 2 MiB of addresses, and a loop
    // would visit each page of the table out of order.
    // Masked with `mask << 4`, the sum is the home slot's byte offset, which costs no shift.
    (address &+ (address &>> 17)) & offsetMask
  }

  static func home(of address: UInt, mask: Int) -> Int {
    Int(bitPattern: homeOffset(of: address, offsetMask: UInt(bitPattern: mask) &<< 4) &>> 4)
  }

  /// The word `offset` bytes past the mask word: a slot's address at a slot's offset, its
  /// storage 8 bytes on.
  @inlinable @inline(__always)
  func word(at offset: UInt) -> UInt {
    atomicWord(at: offset).pointee.load(ordering: .relaxed)
  }

  @inlinable @inline(__always)
  func atomicWord(at offset: UInt) -> UnsafePointer<Atomic<UInt>> {
    UnsafePointer(
      (UnsafeMutableRawPointer(words) + (8 &+ Int(bitPattern: offset)))
        .assumingMemoryBound(to: Atomic<UInt>.self))
  }

  /// The byte offset of the slot that holds `address`, probing with `offsetMask`, which must
  /// not exceed this array's own; nil if there is none. Terminates even on a torn read.
  @inlinable @inline(__always)
  func offset(of address: UInt, offsetMask: UInt) -> UInt? {
    var offset = Self.homeOffset(of: address, offsetMask: offsetMask)
    var probed: UInt = 0
    while true {
      // Acquiring, so that the storage read next is at least the one published with this
      // address.
      let candidate = atomicWord(at: offset).pointee.load(ordering: .acquiring)
      if candidate == address { return offset }
      if candidate == 0 || probed == offsetMask { return nil }
      offset = (offset &+ 16) & offsetMask
      probed &+= 16
    }
  }

  /// The storage bits of the slot at `offset`.
  @inlinable @inline(__always)
  func storageBits(atOffset offset: UInt) -> UInt {
    word(at: offset &+ 8)
  }

  /// The storage bits for `address`, or 0. Terminates even on a torn read.
  func find(_ address: UInt) -> UInt {
    find(address, offsetMask: offsetMask)
  }

  /// The storage bits for `address`, probing with `offsetMask`, which must not exceed this
  /// array's own; 0 if there is none. Terminates even on a torn read.
  @inline(__always)
  func find(_ address: UInt, offsetMask: UInt) -> UInt {
    guard let offset = offset(of: address, offsetMask: offsetMask) else { return 0 }
    return storageBits(atOffset: offset)
  }

  func address(at index: Int) -> UInt {
    words[1 + 2 * index].load(ordering: .relaxed)
  }

  func storageBits(at index: Int) -> UInt {
    words[2 + 2 * index].load(ordering: .relaxed)
  }

  func storage(at index: Int) -> Unmanaged<AssociationStorage>? {
    guard address(at: index) != 0 else { return nil }
    // A slot with an address always holds a retained storage.
    return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: storageBits(at: index))!)
  }

  /// Whether the host in slot `index` has finished its deinit. Its memory stays readable: the
  /// slot's storage pins it.
  ///
  /// A host inside its deinit is not dead yet: its deinit may still read its values. After the
  /// deinit, the host's unowned count is exactly its pins: the storage's, and those of any
  /// ``WeakReference`` to it.
  func isDead(at index: Int) -> Bool {
    if case .dead = host(at: index) { return true }
    return false
  }

  func deadStorage(at index: Int) -> Unmanaged<AssociationStorage>? {
    isDead(at: index) ? storage(at: index) : nil
  }

  /// What a sweep finds in a slot.
  enum SweptHost {
    case empty
    case live
    /// Its deinit has begun and not visibly ended: the unowned count holds more than the
    /// strong references' one and the pins. Either the deinit runs, or something holds the
    /// host `unowned`.
    case inDeinit(address: UInt)
    case dead(Unmanaged<AssociationStorage>)
  }

  func host(at index: Int) -> SweptHost {
    let address = address(at: index)
    guard address != 0, let object = UnsafeMutableRawPointer(bitPattern: address) else {
      return .empty
    }
    guard affix_is_deallocating(object) else { return .live }
    // The flag was set by the releasing decrement that ended the host's life: what happened
    // before it, such as a pin taken while the host lived, is seen after this fence.
    atomicMemoryFence(ordering: .acquiring)
    // A slot with an address always holds a retained storage.
    let storage = Unmanaged<AssociationStorage>.fromOpaque(
      UnsafeRawPointer(bitPattern: storageBits(at: index))!)
    let unownedCount = affix_unowned_count(object)
    // A `WeakReference` uncounts its pin, fences, then drops it (see `Pin`): a count read
    // without the pin comes, after this fence, with a `ForeignPins` that no longer counts it.
    atomicMemoryFence(ordering: .acquiring)
    guard unownedCount <= 1 + ForeignPins.count(at: object) else {
      return .inDeinit(address: address)
    }
    return .dead(storage)
  }

  /// The class of the host in slot `index`, read from the object's header, which the slot's
  /// storage keeps allocated.
  func hostType(at index: Int) -> any AnyObject.Type {
    // The address is nonzero: the caller found a host there.
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address(at: index))!)
      ._withUnsafeGuaranteedRef { type(of: $0) }
  }

  func insert(_ address: UInt, _ storage: Unmanaged<AssociationStorage>) {
    insertBits(address, UInt(bitPattern: storage.toOpaque()))
  }

  func insertBits(_ address: UInt, _ storageBits: UInt) {
    let mask = self.mask
    var index = Self.home(of: address, mask: mask)
    while self.address(at: index) != 0 {
      index = (index + 1) & mask
    }
    words[2 + 2 * index].store(storageBits, ordering: .relaxed)
    words[1 + 2 * index].store(address, ordering: .releasing)
  }

  /// Empties slot `index`, shifting later slots of its probe run back so that no tombstones
  /// are needed.
  ///
  /// Each slot's address is cleared before its storage changes, and set after: a lock-free
  /// reader that reads the same address before and after the storage has read that address's
  /// storage (see ``inlineBits(for:of:)``). An entry only ever moves backward, so its address
  /// never returns to a slot it left.
  /// Returns how many slots it visited, so that a sweep can bound its work under the lock.
  @discardableResult
  func remove(at index: Int) -> Int {
    let mask = self.mask
    var hole = index
    var visited = 1
    clearAddress(at: hole)
    var next = (hole + 1) & mask
    while true {
      visited += 1
      let address = self.address(at: next)
      if address == 0 { break }
      let home = Self.home(of: address, mask: mask)
      // Move the entry into the hole unless its home lies cyclically in (hole, next].
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !stays {
        words[2 + 2 * hole].store(storageBits(at: next), ordering: .relaxed)
        words[1 + 2 * hole].store(address, ordering: .releasing)
        hole = next
        clearAddress(at: hole)
      }
      next = (next + 1) & mask
    }
    words[2 + 2 * hole].store(0, ordering: .relaxed)
    return visited
  }

  /// Clears slot `index`'s address, ordered before any later store to its storage.
  private func clearAddress(at index: Int) {
    words[1 + 2 * index].store(0, ordering: .relaxed)
    atomicMemoryFence(ordering: .releasing)
  }
}
