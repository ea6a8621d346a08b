import Dispatch

/// Polls `condition` until it holds, sleeping a millisecond in between; false if it does not
/// within `timeout` (a deadline for a hang, never a measure of speed: a slow machine only
/// polls longer).
///
/// The one place the tests poll real time. Runs in its caller's isolation, so that
/// `condition` may read the caller's state.
package func eventually(
  isolation: isolated (any Actor)? = #isolation, timeout: Duration = .seconds(10),
  _ condition: () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return await condition()
}

/// Whether the caller runs on the main queue, the main actor's executor (which, under an
/// `async` entry point on Linux, is not the process's first thread, so `Thread.isMainThread`
/// cannot tell).
package func isOnMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Made and set on the main queue at the first check, from whichever thread makes it.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()
