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

  /// Whether every host takes the weak path, as set by `AFFIX_HOST_MODE=weak` when the process
  /// starts; so that the weak path, which on Linux no host needs, is tested here for every host.
  package static let everyHostIsWeak: Bool = {
    guard let mode = getenv("AFFIX_HOST_MODE") else { return false }
    switch String(cString: mode) {
    case "weak": return true
    case "pinned", "": return false
    default:
      Diagnostics.report(
        "associations",
        "AFFIX_HOST_MODE=\(String(cString: mode)) is not a host mode (pinned or weak); "
          + "using pinned")
      return false
    }
  }()

  /// The path for `host`.
  ///
  /// - Complexity: O(1); reads the host's class and compares two metadata addresses.
  package static func of(_ host: AnyObject) -> HostKind {
    let address = UInt(bitPattern: ObjectIdentifier(host))
    // Tagged pointers (small NSNumber, NSString and NSDate on Apple platforms) carry their
    // value in the pointer: bit 0 on x86_64, the top bit on arm64. No heap object has either.
    if address & 1 != 0 || Int(bitPattern: address) < 0 {
      return .unsupported("a tagged pointer has no identity of its own")
    }
    let hostClass: AnyClass = type(of: host)
    // `value as AnyObject` boxes a struct, an enum or a metatype afresh on every conversion:
    // values attached to the box would be released with it at once.
    if ObjectIdentifier(hostClass) == ObjectIdentifier(boxClass) {
      return .unsupported("a value converted to AnyObject is boxed afresh on every conversion")
    }
    if !usesNativeReferenceCounting(hostClass) {
      if host is AnyClass {
        return .unsupported("a class object is never deallocated and is shared by every caller")
      }
      return .weak
    }
    return everyHostIsWeak ? .weak : .pinned
  }

  /// Whether the Swift runtime keeps `host`'s reference counts in its header.
  package static func isCountedNatively(_ host: AnyObject) -> Bool {
    usesNativeReferenceCounting(type(of: host))
  }

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
  // `__SwiftNative*Base` classes, and clear for every `NSObject` descendant. Unverified here:
  // no machine of this project compiles for Apple platforms (see Docs/Platforms.md).
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
