/// A dancer's groups, in the order declared, in one allocation with its count.
///
/// Not an array: a frame steps every running group in place under the dancer's lock, and an
/// array would check its uniqueness at every mutation, or copy a group (retaining every
/// reference in it) at a read through an optional. The groups sit right after the count, so a
/// frame reaches the first group's engine with no further indirection. Only ever touched under
/// the dancer's lock; full, it is replaced by a larger one (see `Dancer.State.append(_:)`).
final class GroupList: ManagedBuffer<Int, Dancer.Group>, RandomAccessCollection {
  static func make(capacity: Int) -> GroupList {
    // The buffer made is of the class asked for: `create` is a class method.
    // swift-format-ignore: NeverForceUnwrap
    unsafeDowncast(GroupList.create(minimumCapacity: capacity) { _ in 0 }, to: GroupList.self)
  }

  deinit {
    _ = withUnsafeMutablePointers { count, groups in groups.deinitialize(count: count.pointee) }
  }

  var count: Int { header }
  var startIndex: Int { 0 }
  var endIndex: Int { header }
  var isFull: Bool { header == capacity }

  subscript(index: Int) -> Dancer.Group {
    unsafeAddress {
      precondition(index >= 0 && index < header, "group index out of range")
      return withUnsafeMutablePointerToElements { UnsafePointer($0 + index) }
    }
    unsafeMutableAddress {
      precondition(index >= 0 && index < header, "group index out of range")
      return withUnsafeMutablePointerToElements { $0 + index }
    }
  }

  /// The group at `index`, in place, for the frame: unchecked.
  @inline(__always)
  func pointer(at index: Int) -> UnsafeMutablePointer<Dancer.Group> {
    withUnsafeMutablePointerToElements { $0 + index }
  }

  /// Appends `group`; only when not full.
  func append(_ group: Dancer.Group) {
    precondition(!isFull, "the group list is full")
    withUnsafeMutablePointers { count, groups in
      (groups + count.pointee).initialize(to: group)
      count.pointee += 1
    }
  }

  /// Moves every group into `larger`, which must be empty and large enough.
  func move(into larger: GroupList) {
    withUnsafeMutablePointers { count, groups in
      larger.withUnsafeMutablePointers { largerCount, largerGroups in
        largerGroups.moveInitialize(from: groups, count: count.pointee)
        largerCount.pointee = count.pointee
      }
      count.pointee = 0
    }
  }

  func remove(at index: Int) -> Dancer.Group {
    precondition(index >= 0 && index < header, "group index out of range")
    return withUnsafeMutablePointers { count, groups in
      let group = (groups + index).move()
      (groups + index).moveInitialize(from: groups + index + 1, count: count.pointee - index - 1)
      count.pointee -= 1
      return group
    }
  }

  /// Removes every group and returns them, for the caller to release outside the lock.
  func removeAll() -> [Dancer.Group] {
    withUnsafeMutablePointers { count, groups in
      let all = Array(UnsafeBufferPointer(start: groups, count: count.pointee))
      groups.deinitialize(count: count.pointee)
      count.pointee = 0
      return all
    }
  }
}

/// A dancer's groups as its state keeps them: the first inline, so that the frame finds it on
/// the cache lines of the lock it has just taken, and the others in a ``GroupList``.
struct Groups: RandomAccessCollection, MutableCollection {
  /// The first group; a placeholder, with no animation, while there is none.
  private(set) var first = Dancer.Group.placeholder
  /// The groups after the first.
  private(set) var rest = GroupList.make(capacity: 2)
  /// `rest` for the frame, which reads it with no reference counting.
  private(set) var unmanagedRest: Unmanaged<GroupList>
  private(set) var count = 0

  init() {
    unmanagedRest = Unmanaged.passUnretained(rest)
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  // Plain accessors, not `_read`/`_modify`: the address sanitizer caught a `_modify` whose
  // coroutine frame held the group being modified, read after the frame was freed. The frame
  // reaches groups through `withFirstEngine` and `unmanagedRest`, not through here.
  subscript(index: Int) -> Dancer.Group {
    get {
      precondition(index >= 0 && index < count, "group index out of range")
      return index == 0 ? first : rest[index - 1]
    }
    set {
      precondition(index >= 0 && index < count, "group index out of range")
      if index == 0 { first = newValue } else { rest[index - 1] = newValue }
    }
  }

  /// The first group's animation, in place, for the frame.
  @inline(__always)
  mutating func withFirstEngine<Result>(_ body: (inout AnimationEngine?) -> Result) -> Result {
    body(&first.engine)
  }

  mutating func append(_ group: Dancer.Group) {
    defer { count += 1 }
    guard count > 0 else {
      first = group
      return
    }
    if rest.isFull {
      let larger = GroupList.make(capacity: rest.capacity * 2)
      rest.move(into: larger)
      rest = larger
      unmanagedRest = Unmanaged.passUnretained(larger)
    }
    rest.append(group)
  }

  /// Removes the group at `index` and returns it, for the caller to release outside the lock.
  mutating func remove(at index: Int) -> Dancer.Group {
    precondition(index >= 0 && index < count, "group index out of range")
    count -= 1
    guard index == 0 else { return rest.remove(at: index - 1) }
    let removed = first
    first = rest.isEmpty ? .placeholder : rest.remove(at: 0)
    return removed
  }

  /// Removes every group and returns them, for the caller to release outside the lock.
  mutating func removeAll() -> [Dancer.Group] {
    guard count > 0 else { return [] }
    let all = [first] + rest.removeAll()
    first = .placeholder
    count = 0
    return all
  }
}
