import MainQueueCheck

// Top-level code with `await` is the main actor's, and Linux runs the main queue of such a
// program on a Dispatch thread, not on the process's first thread.
guard isOnMainQueue() else { fatalError("async-main: top-level code is off the main queue") }
let onMainQueue = await withCheckedContinuation { continuation in
  replaceAValue { continuation.resume(returning: $0) }
}
finish("async-main", onMainQueue: onMainQueue)
