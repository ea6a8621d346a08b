import Affix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The value of an environment variable, if set.
func getenvString(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

/// Lets another thread run.
func yieldThread() {
  sched_yield()
}

/// The host mode the library runs in (`AFFIX_HOST_MODE`, heard only with the `TestSeams`
/// trait), for the few behaviours that differ between the pinned and the weak path. Asked of
/// the library, not of the environment: built without the trait, it ignores the variable.
enum HostMode {
  /// Every host takes the weak path: `weak`, or `hooked`, where only ``HookedHost``s also get
  /// a deallocation hook.
  static let isWeak = HostKind.mode != .pinned
  /// ``HookedHost``s get a deallocation hook, the twin of an `NSObject`'s on Apple platforms.
  static let isHooked = HostKind.mode == .hooked
}

/// Whether the thread sanitizer's runtime is in this process. Its child of a multithreaded
/// `fork()` hangs in the Swift runtime's lazy metadata set-up, whatever the test does.
let threadSanitizerIsActive: Bool = {
  #if canImport(Glibc) || canImport(Musl)
    return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
  #else
    return false
  #endif
}()
