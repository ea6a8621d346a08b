import Dispatch

/// Tells whether code runs on the main queue, the main actor's executor.
///
/// Not `Thread.isMainThread`: where a program's main thread hands the main queue to Dispatch
/// (`dispatch_main()`, as an `async` entry point does on Linux), the main queue, and the main
/// actor with it, runs on other threads.
package enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main queue.
  package static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
