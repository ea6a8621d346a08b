import Affix
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives the cursor back when Ctrl-C (`SIGINT`) or `SIGTERM` ends the process while a spinner
/// that writes to a file descriptor is shown, then lets the signal end the process as it would
/// have: with the default disposition, so that the shell sees the signal's status.
///
/// The handling is installed when the first such spinner appears and removed when the last one
/// disappears, and only for a signal whose disposition is the default: a process that handles
/// or ignores the signal itself keeps it, and restores its terminal its own way.
///
/// A signal handler may not lock, allocate or call a spinner's `write` closure, so the handler
/// writes a fixed sequence to the descriptors that the shown spinners write to, read from one
/// atomic word; a spinner with a `write` closure of its own is not covered.
package enum SpinnerSignals {
  /// The signals handled while a spinner is shown.
  package static let signals = [SIGINT, SIGTERM]

  /// Bit `d` is set while a shown spinner writes to descriptor `d`; the handler reads only this.
  private static let shownDescriptors = Atomic<UInt64>(0)

  private struct Registry {
    /// How many shown spinners write to each descriptor.
    var counts: [Int32: Int] = [:]
    /// The signals whose handler this installed, to remove when the last spinner goes.
    var installed: [Int32] = []
  }

  private static let registry = LockedState(Registry())

  /// Descriptors that fit the handler's word; a spinner on a higher one is not covered.
  package static func covers(_ descriptor: Int32) -> Bool {
    (0..<64).contains(descriptor)
  }

  /// A spinner writing to `descriptor` was shown; the first one installs the handler.
  static func spinnerShown(on descriptor: Int32) {
    guard covers(descriptor) else { return }
    registry.withLock { registry in
      let wasIdle = registry.counts.isEmpty
      registry.counts[descriptor, default: 0] += 1
      shownDescriptors.bitwiseOr(1 << UInt64(descriptor), ordering: .releasing)
      guard wasIdle else { return }
      for signalNumber in signals where handler(of: signalNumber) == defaultHandler {
        // Put back at once if someone else installed a handler since it was read.
        let previous = signal(signalNumber, restoreTerminalsAndReraise)
        if address(of: previous) == defaultHandler {
          registry.installed.append(signalNumber)
        } else {
          signal(signalNumber, previous)
        }
      }
    }
  }

  /// A spinner writing to `descriptor` disappeared; the last one removes the handler, unless
  /// someone replaced it meanwhile.
  static func spinnerHidden(on descriptor: Int32) {
    guard covers(descriptor) else { return }
    registry.withLock { registry in
      guard let count = registry.counts[descriptor] else { return }
      if count > 1 {
        registry.counts[descriptor] = count - 1
        return
      }
      registry.counts[descriptor] = nil
      shownDescriptors.bitwiseAnd(~(1 << UInt64(descriptor)), ordering: .releasing)
      guard registry.counts.isEmpty else { return }
      for signalNumber in registry.installed where handler(of: signalNumber) == ourHandler {
        signal(signalNumber, SIG_DFL)
      }
      registry.installed = []
    }
  }

  /// Whether `signalNumber` is handled by the spinners now.
  package static func isHandling(_ signalNumber: Int32) -> Bool {
    handler(of: signalNumber) == ourHandler
  }

  /// Whether `signalNumber` has its default disposition now.
  package static func hasDefaultDisposition(_ signalNumber: Int32) -> Bool {
    handler(of: signalNumber) == defaultHandler
  }

  /// What the handler does before it re-raises the signal: writes the restoring sequence to
  /// every descriptor a shown spinner writes to. Async-signal-safe: one atomic load and
  /// `write(2)` calls.
  package static func restoreTerminals() {
    let shown = shownDescriptors.load(ordering: .acquiring)
    guard shown != 0 else { return }
    // A literal, not a global: a global's first use could run its initializer in the handler.
    let sequence: StaticString = "\r\u{1B}[2K\u{1B}[?25h"
    for descriptor in 0..<Int32(64) where shown & (1 << UInt64(descriptor)) != 0 {
      _ = write(descriptor, sequence.utf8Start, sequence.utf8CodeUnitCount)
    }
  }

  private static let defaultHandler = 0
  private static let ourHandler: Int = {
    let handler: @convention(c) (Int32) -> Void = restoreTerminalsAndReraise
    return unsafeBitCast(handler, to: Int.self)
  }()

  private static func address(of handler: (@convention(c) (Int32) -> Void)?) -> Int {
    unsafeBitCast(handler, to: Int.self)
  }

  /// The address of the handler installed for `signalNumber` (0 for the default), read
  /// without changing it.
  private static func handler(of signalNumber: Int32) -> Int {
    var action = sigaction()
    sigaction(signalNumber, nil, &action)
    #if canImport(Glibc)
      return address(of: action.__sigaction_handler.sa_handler)
    #elseif canImport(Musl)
      return address(of: action.__sa_handler.sa_handler)
    #elseif canImport(Darwin)
      return address(of: action.__sigaction_u.__sa_handler)
    #endif
  }
}

/// The signal handler: restores the terminals, then re-raises the signal with its default
/// disposition. The signal stays blocked until the handler returns, and is then delivered
/// again, ending the process with the signal's status.
private func restoreTerminalsAndReraise(_ signalNumber: Int32) {
  SpinnerSignals.restoreTerminals()
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}
