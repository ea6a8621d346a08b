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

// A nonisolated observer, on a writer's thread, cancels its own token through
// `DispatchQueue.main.sync` while the main queue cancels the same token. The main queue's
// cancel waits for the call in flight, and the call waits for the main queue: the cancel must
// give up, say so, and return. Exits 0 once both cancels have returned, the call has ended
// and one diagnostic was reported; a cancel that waits without end hangs the program, which
// the script that runs it bounds.

enum Count: AssociatedKey { static let defaultValue = 0 }
final class Model: Sendable {}

let model = Model()
let held = Mutex<CancellationToken?>(nil)
let reports = Mutex(0)
let entered = DispatchSemaphore(value: 0)
let ended = DispatchSemaphore(value: 0)
Diagnostics.setHandler { diagnostic in
  print("observer-cancel: reported: \(diagnostic.message)")
  reports.withLock { $0 += 1 }
}

let token = Associations(of: model).observe(
  Count.self,
  nonisolated: { _ in
    entered.signal()
    DispatchQueue.main.sync { held.withLock { $0 }?.cancel() }
    ended.signal()
  })
held.withLock { $0 = token }
DispatchQueue.global().async { Associations(of: model)[Count.self] = 1 }
entered.wait()  // the call is in flight, on its way to the main queue
token.cancel()
// The main queue is free once this code suspends: the observer's block runs, and its cancel
// returns.
let callEnded = await withCheckedContinuation { continuation in
  DispatchQueue.global().async {
    continuation.resume(returning: ended.wait(timeout: .now() + 30) == .success)
  }
}
let count = reports.withLock { $0 }
print(
  "observer-cancel: both cancels returned; the call "
    + (callEnded ? "ended" : "did not end") + "; \(count) diagnostic(s)")
exit(callEnded && count == 1 ? 0 : 1)
