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
