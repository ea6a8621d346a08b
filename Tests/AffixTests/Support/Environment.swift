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

/// The host mode this run was started in (`AFFIX_HOST_MODE`), for the few behaviours that
/// differ between the pinned and the weak path.
enum HostMode {
  /// Every host takes the weak path: `weak`, or `hooked`, where only ``HookedHost``s also get
  /// a deallocation hook.
  static let isWeak = ["weak", "hooked"].contains(getenvString("AFFIX_HOST_MODE"))
  /// ``HookedHost``s get a deallocation hook, the twin of an `NSObject`'s on Apple platforms.
  static let isHooked = getenvString("AFFIX_HOST_MODE") == "hooked"
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
