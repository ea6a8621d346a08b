#if canImport(ObjectiveC)
  import ObjectiveC

  // Apple platforms only: type-checked in CI against stand-ins (`.ci/apple-typecheck.sh`), run
  // on Apple hardware alone (see Docs/Platforms.md): the few lines that call the Objective-C
  // runtime. What they feed, `DeallocationHook` and
  // the weak table's rules, is portable and runs in CI through its twin
  // (`AFFIX_HOST_MODE=hooked`, `DeallocationHook.swift`).

  extension DeallocationHook {
    /// Keeps `hook` as an associated object of `host`.
    ///
    /// objc4 releases an object's associated objects in `objc_destructInstance`, which runs
    /// when the object deallocates, on the thread that released it, after every `deinit` body
    /// and before its memory is freed: for an `NSObject` descendant from `-dealloc`, and for a
    /// Swift object from `swift_deallocClassInstance` when the runtime has seen it gain
    /// associations. So the hook removes the host's entry exactly as the host goes, and no
    /// object at the same address can meet the entry.
    static func associate(_ hook: DeallocationHook, with host: AnyObject) {
      // Any unique address is a key; the hook class's metadata is one that never moves.
      let key = unsafeBitCast(DeallocationHook.self, to: UnsafeRawPointer.self)
      objc_setAssociatedObject(host, key, hook, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
  }

  /// Whether objc4 would let a weak reference to `host` be formed now: the answer that
  /// `weak_register_no_lock` (objc-weak.mm) computes before it registers one, asked through
  /// public runtime functions (`object_getClass`, `class_respondsToSelector`,
  /// `class_getMethodImplementation`) rather than the private `objc_initWeakOrNil`.
  ///
  /// That function reads the deallocating bit of a class without custom reference counting,
  /// and otherwise sends `-allowsWeakReference` (returning nil, not crashing, for a class that
  /// does not implement it). Overriding `-allowsWeakReference` gives a class custom reference
  /// counting, and `NSObject`'s implementation answers `![self _isDeallocating]`, which reads
  /// that same bit, so sending the message gives the runtime's own answer for every class.
  /// The caller holds `host`, so the answer cannot change before the weak reference is formed,
  /// unless `host` is already deallocating, when it stays no.
  func objectiveCAllowsWeakReference(_ host: AnyObject) -> Bool {
    let selector = sel_registerName("allowsWeakReference")
    guard let hostClass = object_getClass(host), class_respondsToSelector(hostClass, selector),
      let implementation = class_getMethodImplementation(hostClass, selector)
    else { return false }
    typealias AllowsWeakReference = @convention(c) (AnyObject, Selector) -> ObjCBool
    return unsafeBitCast(implementation, to: AllowsWeakReference.self)(host, selector).boolValue
  }
#endif
