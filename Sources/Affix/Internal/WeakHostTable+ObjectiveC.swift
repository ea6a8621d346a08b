#if canImport(ObjectiveC)
  import ObjectiveC

  // Apple platforms only, and compiled by no machine of this project (see Docs/Platforms.md).
  //
  // objc4 releases an object's associated objects in `objc_destructInstance`, which runs when
  // the object deallocates, on the thread that released it, before its memory is freed: for an
  // `NSObject` descendant from `-dealloc`, and for a Swift object from
  // `swift_deallocClassInstance` when the runtime has seen it gain associations. So a hook kept
  // as an association removes the host's entry exactly as the host goes, and no object at the
  // same address can meet the entry. Actors refuse associated objects, so the hook is attached
  // only to objects the Objective-C runtime counts; natively counted hosts forced onto this
  // path by `AFFIX_HOST_MODE=weak` rely on sweeps, as on Linux.
  extension WeakHostTable {
    static func attachDeallocationHook(to host: AnyObject, address: UInt, entry: Entry) {
      guard !HostKind.isCountedNatively(host) else { return }
      // Any unique address is a key; the hook class's metadata is one that never moves.
      let key = unsafeBitCast(DeallocationHook.self, to: UnsafeRawPointer.self)
      objc_setAssociatedObject(
        host, key, DeallocationHook(entry: entry, address: address),
        .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      entry.isRemovedAtDeallocation.store(true, ordering: .releasing)
    }
  }

  /// Released with its host's associations; removes the host's entry and releases its values
  /// on the deallocating thread, which is where an app expects a view's state to go.
  private final class DeallocationHook: Sendable {
    let entry: WeakHostTable.Entry
    let address: UInt

    init(entry: WeakHostTable.Entry, address: UInt) {
      self.entry = entry
      self.address = address
    }

    deinit {
      WeakHostTable.remove(entry, at: address)?.release()
    }
  }
#endif
