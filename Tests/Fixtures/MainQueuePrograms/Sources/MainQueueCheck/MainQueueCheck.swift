import Affix
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the caller runs on the main queue, whichever thread runs it.
public func isOnMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// A value that reports, from its deinit, whether it was released on the main queue.
final class Recorder: Sendable {
  enum Key: AssociatedKey { typealias Value = Recorder? }
  let released: @Sendable (Bool) -> Void
  init(released: @escaping @Sendable (Bool) -> Void) { self.released = released }
  deinit { released(isOnMainQueue()) }
}

final class Photo: Sendable {}

/// Stores a value on a host and removes it, on the caller's queue; `released` is told where
/// the value's deinit ran.
public func replaceAValue(released: @escaping @Sendable (_ onMainQueue: Bool) -> Void) {
  _ = mainQueueKey
  let photo = Photo()
  Associations(of: photo)[Recorder.Key.self] = Recorder(released: released)
  Associations(of: photo)[Recorder.Key.self] = nil
}

/// Prints the outcome and exits with it: 0 when the value was released on the main queue.
public func finish(_ program: String, onMainQueue: Bool) -> Never {
  print(
    "\(program): a value replaced on the main queue was released "
      + (onMainQueue ? "on the main queue" : "off the main queue"))
  exit(onMainQueue ? 0 : 1)
}

/// Prints `message` and exits with status 2.
public func giveUp(_ message: String) -> Never {
  print(message)
  exit(2)
}
