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
