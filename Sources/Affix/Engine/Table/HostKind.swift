#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if _pointerBitWidth(_32)
  // The shared table's slots are two words probed in 16-byte steps, and a key's ID keeps its
  // representation in the low bits of 8-byte-aligned metadata: both assume 64-bit pointers.
  #error("Affix supports 64-bit targets only; see Docs/Platforms.md")
#endif

/// How the core keeps the values of a host: which path is correct for the host's kind.
///
/// The default path pins the host's memory with an unowned reference count, so that no other
/// object can appear at its address while its values are in the table, and tells a dead host
/// by its reference counts. That is sound only for objects whose reference counts the Swift
/// runtime keeps in their header. An object counted by the Objective-C runtime (every
/// `NSObject` descendant on Apple platforms) keeps its first stored property where a native
/// object keeps its counts, so it takes the weak path: its entry holds it through a Swift
/// `weak` reference (which the compiler lowers to Objective-C weak references for such
/// objects) and is valid only while that reference still reads the host.
package enum HostKind: Equatable, Sendable {
  /// A natively reference-counted object: pinned, found by its address.
  case pinned
  /// An object whose reference counts the core must not touch: held weakly, checked by
  /// identity on every lookup.
  case weak
  /// An object that cannot carry values; the reason says why.
  case unsupported(String)

  /// Which path hosts take, as set by `AFFIX_HOST_MODE` when the process starts: so that the
  /// weak path, which no host needs on Linux, and the deallocation hook of Apple platforms,
  /// which Linux has not, are tested here.
  package enum Mode: String, Sendable {
    /// Each host takes the path of its kind: the default.
    case pinned
    /// Every host takes the weak path, and only sweeps find dead hosts.
    case weak
    /// Every host takes the weak path, and a host of a class that conforms to
    /// ``DeallocationHookHost`` (the twin of an `NSObject`, in the tests) has its entry removed
    /// by a deallocation hook as it deallocates, as an Objective-C object's is on Apple
    /// platforms. See `DeallocationHook.swift`.
    case hooked
  }

  /// The mode this process runs in (`AFFIX_HOST_MODE`, read once, with the `TestSeams`
  /// trait; always pinned without it).
  package static let mode: Mode = {
    #if !TestSeams
      return .pinned
    #else
      return modeFromEnvironment()
    #endif
  }()

  #if TestSeams
    private static func modeFromEnvironment() -> Mode {
      guard let text = getenv("AFFIX_HOST_MODE") else { return .pinned }
      let name = String(cString: text)
      if name.isEmpty { return .pinned }
      guard let mode = Mode(rawValue: name) else {
        Diagnostics.report(
          subsystem: "associations",
          message:
            "AFFIX_HOST_MODE=\(name) is not a host mode (pinned, weak or hooked); using pinned")
        return .pinned
      }
      return mode
    }
  #endif

  /// Whether every host takes the weak path (`AFFIX_HOST_MODE=weak` or `hooked`).
  package static let everyHostIsWeak: Bool = mode != .pinned

  /// The path for `host`.
  ///
  /// - Complexity: O(1); reads the host's class and compares two metadata addresses.
  package static func of(_ host: AnyObject) -> HostKind {
    if isTaggedPointer(UInt(bitPattern: ObjectIdentifier(host))) {
      return .unsupported("a tagged pointer has no identity of its own")
    }
    let hostClass: AnyClass = type(of: host)
    // `value as AnyObject` boxes a struct, an enum or a metatype afresh on every conversion:
    // values attached to the box would be released with it at once.
    if ObjectIdentifier(hostClass) == ObjectIdentifier(boxClass) {
      return .unsupported("a value converted to AnyObject is boxed afresh on every conversion")
    }
    #if !canImport(ObjectiveC)
      if let reason = bridgedValueReason(hostClass) { return .unsupported(reason) }
    #endif
    if !usesNativeReferenceCounting(hostClass) {
      if host is AnyClass {
        return .unsupported("a class object is never deallocated and is shared by every caller")
      }
      return .weak
    }
    return everyHostIsWeak ? .weak : .pinned
  }

  /// Whether `address`, the bit pattern of an object reference, is an Objective-C tagged
  /// pointer: a value carried in the pointer itself (a small `NSNumber`, `NSString` or
  /// `NSDate`), with no object behind it.
  ///
  /// objc4's `objc-internal.h` defines the rule as `_objc_isTaggedPointer(ptr)`:
  /// `(ptr & _OBJC_TAG_MASK) == _OBJC_TAG_MASK`, where `_OBJC_TAG_MASK` is `1UL` (bit 0) when
  /// `OBJC_MSB_TAGGED_POINTERS` is 0, which it is only for 64-bit macOS and Mac Catalyst on
  /// x86_64 ("64-bit Mac - tag bit is LSB"), and `1UL << 63` (the top bit) everywhere else:
  /// arm64 (split tagged pointers keep the tag in the top bit too) and the x86_64 simulators
  /// of iOS, tvOS and visionOS. Heap objects are 16-byte aligned and Apple's user address space
  /// ends far below the top bit, so neither bit is ever set in a real object's address there.
  ///
  /// Without an Objective-C runtime there are no tagged pointers at all, and either bit may be
  /// set in a real object's address: arm64 top-byte tagging (HWASan, or a kernel and allocator
  /// using the ignored top byte) puts a tag in bits 56-63 of every heap pointer, the top bit in
  /// about half of them. So elsewhere no address is a tagged pointer.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  package static func isTaggedPointer(_ address: UInt) -> Bool {
    #if canImport(ObjectiveC)
      #if arch(x86_64) && (os(macOS) || targetEnvironment(macCatalyst))
        return address & 1 != 0
      #else
        return address & (1 << 63) != 0
      #endif
    #else
      return false
    #endif
  }

  /// Whether the Swift runtime keeps `host`'s reference counts in its header.
  package static func isCountedNatively(_ host: AnyObject) -> Bool {
    usesNativeReferenceCounting(type(of: host))
  }

  #if !canImport(ObjectiveC)
    /// Why an object of `hostClass` cannot carry values, if it is what Foundation makes of a
    /// Swift value converted to `AnyObject` on Linux: `17 as AnyObject` is a new `NSNumber`,
    /// `"a" as AnyObject` a new `NSString`, an array a new `NSArray`, on every conversion; and
    /// every `nil as AnyObject` is the one `NSNull` of the process, which every caller would
    /// share. (On Apple platforms these are Objective-C objects: tagged pointers are refused
    /// above, and the rest take the weak path.) The classes are looked up by name once, so
    /// that the core need not link Foundation; a process without it has none of them.
    private static func bridgedValueReason(_ hostClass: AnyClass) -> String? {
      let id = ObjectIdentifier(hostClass)
      if let null = bridgedNullClass, id == null {
        return "nil converted to AnyObject is the one NSNull every caller shares"
      }
      guard bridgedValueClasses.contains(id) else { return nil }
      return "a value converted to AnyObject is bridged to a new Foundation object on every "
        + "conversion"
    }

    /// Foundation's `NSNull`, if Foundation is in the process.
    private static let bridgedNullClass: ObjectIdentifier? =
      (_typeByName("Foundation.NSNull") as? AnyClass).map(ObjectIdentifier.init)

    /// The classes Foundation bridges Swift values to (exactly those, not their subclasses:
    /// a mutable collection made on purpose is an object like any other), for those present.
    private static let bridgedValueClasses: [ObjectIdentifier] = [
      "Foundation.NSNumber", "Foundation.__NSCFBoolean", "Foundation.NSString",
      "Foundation.NSArray", "Foundation.NSDictionary", "Foundation.NSSet", "Foundation.NSDate",
      "Foundation.NSData", "Foundation.NSURL", "Foundation.NSUUID", "Foundation.NSIndexPath",
      "Foundation.NSDecimalNumber",
    ].compactMap { name in (_typeByName(name) as? AnyClass).map(ObjectIdentifier.init) }
  #endif

  /// The class the runtime boxes values in when they are converted to `AnyObject`.
  private static let boxClass: AnyClass = {
    struct Probe {}
    return type(of: Probe() as AnyObject)
  }()
}

#if canImport(ObjectiveC)
  // The stdlib declares the same entry point (Builtin.swift, `_usesNativeSwiftReferenceCounting`)
  // and the runtime defines it in SwiftObject.mm: it reads the class's `UsesSwiftRefcounting`
  // flag, which is set for Swift classes whose root is `SwiftObject` and for the stdlib's
  // `__SwiftNative*Base` classes, and clear for every `NSObject` descendant. Type-checked here
  // against stand-ins; its answer is seen on Apple hardware alone (see Docs/Platforms.md).
  @_silgen_name("_swift_objcClassUsesNativeSwiftReferenceCounting")
  private func runtimeClassUsesNativeSwiftReferenceCounting(_ theClass: AnyClass) -> Bool

  private func usesNativeReferenceCounting(_ hostClass: AnyClass) -> Bool {
    runtimeClassUsesNativeSwiftReferenceCounting(hostClass)
  }
#else
  // Without an Objective-C runtime every class is counted natively (the stdlib's own
  // `_usesNativeSwiftReferenceCounting` answers true there).
  @inline(__always)
  private func usesNativeReferenceCounting(_ hostClass: AnyClass) -> Bool { true }
#endif
