import Dispatch

extension VirtualClock {
  /// Moves the clock forward by `duration` as ``advance(by:)`` does, but on a thread of its
  /// own, as a real clock fires.
  ///
  /// It returns once it has: the caller waits, blocked. The caller keeps its isolation while it
  /// waits. So what the due work hands the caller's actor, such as the calls of a main-actor
  /// `IsolatedCallback`, waits to run until the caller gives that actor up, and whatever the caller
  /// does first comes between the work's calls and their running. That is a tick racing a stop,
  /// made deterministic: called from the main actor, the tick runs and queues its write to the
  /// host, then the test stops the work, then the tick's write runs.
  ///
  /// ```swift
  /// @MainActor @Test func aStopComesBetweenATickAndItsWrite() async {
  ///   let scheduler = VirtualClock()
  ///   var writes: [String] = []
  ///   let write = IsolatedCallback<String> { writes.append($0) }
  ///   let tick = scheduler.schedule(after: .milliseconds(100)) { write("tick") }
  ///   scheduler.advanceOnAnotherThread(by: .milliseconds(100))  // the tick ran, its write waits
  ///   write("stop")  // the stop's write, after the tick's in order
  ///   #expect(writes.isEmpty)
  ///   await write.delivered()
  ///   #expect(writes == ["tick", "stop"])
  ///   tick.cancel()
  /// }
  /// ```
  ///
  /// Due work must not wait for the caller's actor: that actor is held until this returns.
  ///
  /// - Parameter duration: How far to move the clock; a negative duration is treated as zero.
  public func advanceOnAnotherThread(by duration: Duration) {
    let done = DispatchSemaphore(value: 0)
    // `async`, not `sync`: `sync` may run the block on the caller's own thread, which is not
    // the thread of its own that a clock fires on.
    DispatchQueue.global().async {
      self.advance(by: duration)
      done.signal()
    }
    done.wait()
  }
}
