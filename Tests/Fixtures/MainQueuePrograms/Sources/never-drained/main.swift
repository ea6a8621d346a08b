import Affix
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// A program that never drains its main queue: no `dispatchMain()`, no `async` entry point, no
// run loop. A main-actor value dropped on another thread must wait for the main queue, memory
// kept, and never run its `deinit` elsewhere; the process then exits without running it.

let released = Atomic<Bool>(false)

/// Main-actor state whose `deinit` says that it ran, wherever.
final class Witness {
  deinit { released.store(true, ordering: .relaxed) }
}

/// The one copy of the value, taken by the thread that drops it.
let held = Mutex<IsolationBound<Witness>?>(IsolationBound(Witness()))
let dropped = DispatchSemaphore(value: 0)
DispatchQueue.global().async {
  let taken = held.withLock { value in
    defer { value = nil }
    return value
  }
  _ = consume taken
  dropped.signal()
}
dropped.wait()
// Bounded real time is the property: for a while after the drop, off the main queue, nothing
// has run it.
for _ in 0..<200 {
  if released.load(ordering: .relaxed) {
    print("never-drained: the value's deinit ran off the main queue")
    exit(1)
  }
  usleep(1_000)
}
print("never-drained: the value waits for the main queue; exiting without running it")
exit(0)
