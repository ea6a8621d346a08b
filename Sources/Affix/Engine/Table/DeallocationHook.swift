internal import AffixRuntimeShims

/// Removes a weak-path host's entry as the host deallocates, and releases its values on the
/// deallocating thread, which is where an app expects a view's state to go.
///
/// Portable: only how a hook is kept with its host differs. On Apple platforms an object the
/// Objective-C runtime counts keeps it as an associated object, which objc4 releases in
/// `objc_destructInstance`, after every `deinit` body of the object and before its memory is
/// freed (`WeakHostTable+ObjectiveC.swift`, type-checked here against stand-ins, run on Apple
/// hardware only). The twin
/// on every platform, for `AFFIX_HOST_MODE=hooked`, keeps it in a side table by address, and
/// a host of a class conforming to ``DeallocationHookHost`` releases it from the `deinit` of
/// its root class, also after every other `deinit` body: so this logic, and the sweep rule
/// that comes with it (``WeakHostTable/sweep()``), run in CI.
final class DeallocationHook: Sendable {
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

/// The twin of an `NSObject` on the weak path, for `AFFIX_HOST_MODE=hooked`: a class whose
/// root `deinit` calls ``DeallocationHooks/hostDeallocates(_:)`` last, as objc4's
/// `objc_destructInstance` releases an object's associations once its `deinit` bodies have run.
///
/// Tests only, with the `TestSeams` trait. Outside the hooked mode a conforming host is a host
/// like any other.
#if TestSeams
  package protocol DeallocationHookHost: AnyObject {
    /// Whether the class accepts weak references at all: the twin of a class that overrides
    /// `-allowsWeakReference` to return `NO` (as some AppKit classes do). A deallocating host
    /// refuses them whatever this says, as `NSObject`'s `-allowsWeakReference` does.
    var allowsWeakReference: Bool { get }
  }
#endif

/// Where the deallocation hooks are kept, and when a host gets one.
package enum DeallocationHooks {
  /// How a host keeps its hook.
  enum Keeper {
    #if canImport(ObjectiveC)
      /// An Objective-C associated object, released by objc4 as the host deallocates.
      case associatedObject
    #endif
    /// The twin's side table, emptied by the host's root `deinit`.
    case sideTable
  }

  /// Hooks of twin hosts by address. A host's `deinit` takes its hook out, so an address
  /// holds at most the hook of the one live host there.
  private static let sideTable = Locked<[UInt: DeallocationHook]>(
    [:], processWide: .deallocationHooks)

  /// How `host`, on the weak path, keeps a hook that removes its entry, or nil if it gets
  /// none and sweeps find it once it is gone.
  ///
  /// Apple platforms hook every object the Objective-C runtime counts (actors refuse
  /// associated objects, and natively counted hosts forced onto the weak path by
  /// `AFFIX_HOST_MODE=weak` need no hook); the hooked mode also hooks the twin hosts.
  static func keeper(for host: AnyObject) -> Keeper? {
    #if canImport(ObjectiveC)
      if !HostKind.isCountedNatively(host) { return .associatedObject }
    #endif
    #if TestSeams
      if HostKind.mode == .hooked, host is any DeallocationHookHost { return .sideTable }
    #endif
    return nil
  }

  /// Keeps a hook that removes `entry`, `host`'s at `address`, as `host` deallocates. The
  /// caller holds `host`.
  static func attach(
    _ keeper: Keeper, to host: AnyObject, address: UInt, entry: WeakHostTable.Entry
  ) {
    let hook = DeallocationHook(entry: entry, address: address)
    switch keeper {
    #if canImport(ObjectiveC)
      case .associatedObject:
        DeallocationHook.associate(hook, with: host)
    #endif
    case .sideTable:
      // A hook left by a host that never ran its own (a twin class whose root `deinit` does
      // not call `hostDeallocates`) is released here, outside the lock: its entry is no
      // longer at the address, so it removes nothing.
      let stale = sideTable.withLock { $0.updateValue(hook, forKey: address) }
      _ = stale
    }
  }

  /// Runs `host`'s hook: removes its entry and releases its values, on this thread. What
  /// objc4's `objc_destructInstance` does for an Objective-C object's associations, for the
  /// twin: call it last in the root class's `deinit`. Does nothing outside the hooked mode,
  /// or for a host without values.
  #if TestSeams
    package static func hostDeallocates(_ host: any DeallocationHookHost) {
      guard HostKind.mode == .hooked else { return }
      let address = UInt(bitPattern: ObjectIdentifier(host))
      // Released when this returns, outside the lock: the release runs the values' deinits.
      let hook = sideTable.withLock { $0.removeValue(forKey: address) }
      _ = hook
    }
  #endif

  /// Why no weak reference to `host` can be formed now, or nil if one can.
  ///
  /// A Swift `weak` reference to an object the Objective-C runtime counts is an
  /// `objc_initWeak`, which stops the process ("Cannot form weak reference to instance") when
  /// the object deallocates or its class refuses weak references (objc4's
  /// `weak_register_no_lock`, under `CrashIfDeallocating`): so ask first, as that function
  /// does. A natively counted object in its deinit gives a weak reference that reads nil.
  static func weakReferenceRefusal(of host: AnyObject) -> WeakReferenceRefusal? {
    #if canImport(ObjectiveC)
      if !HostKind.isCountedNatively(host) {
        return objectiveCAllowsWeakReference(host) ? nil : .refusedByObjectiveC
      }
    #endif
    if affix_is_deallocating(Unmanaged.passUnretained(host).toOpaque()) { return .deallocating }
    #if TestSeams
      if HostKind.mode == .hooked, let twin = host as? any DeallocationHookHost,
        !twin.allowsWeakReference
      {
        return .refusedByClass
      }
    #endif
    return nil
  }

  /// The twin of `objc_initWeak`'s check: in the hooked mode, forming a weak reference to a
  /// twin host that refuses one stops the process, as it does for an Objective-C object; so
  /// that a path forming one without asking ``weakReferenceRefusal(of:)`` first fails here
  /// as it would on Apple platforms.
  static func checkTwinAllowsWeakReference(to host: AnyObject) {
    #if TestSeams
      guard HostKind.mode == .hooked, host is any DeallocationHookHost,
        let refusal = weakReferenceRefusal(of: host)
      else { return }
      fatalError(
        "Cannot form weak reference to instance of class \(type(of: host)) (\(refusal)): "
          + "the twin of objc_initWeak, which stops the process here")
    #endif
  }
}

/// Why a weak reference cannot be formed.
enum WeakReferenceRefusal: CustomStringConvertible {
  /// The host's deinit has begun.
  case deallocating
  /// The host's class refuses weak references (the twin's ``DeallocationHookHost``).
  case refusedByClass
  /// `-allowsWeakReference` answered `NO`: the object deallocates, or its class refuses weak
  /// references; the public runtime cannot tell which.
  case refusedByObjectiveC

  var description: String {
    switch self {
    case .deallocating: "it is deallocating"
    case .refusedByClass: "its class refuses weak references"
    case .refusedByObjectiveC:
      "it refuses weak references (it is deallocating, or its class does not support them)"
    }
  }
}
