import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Restores the terminal and exits when the user presses Ctrl-C or the process is asked to
/// terminate, instead of leaving a hidden cursor and half a live region behind.
enum InterruptHandling {
  /// Installs the handlers; keep the returned sources alive for as long as the demo runs.
  ///
  /// Returns once the sources will see the signals: from then on, a signal restores the
  /// terminal. (One that arrives earlier is ignored.)
  static func install(restoring screen: Screen) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { signalNumber in
      // The default action would kill the process before the source could restore anything.
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler {
        screen.interrupt()
        exit(128 + signalNumber)
      }
      source.resume()
      awaitRegistration(of: signalNumber)
      return source
    }
  }

  /// Waits until Dispatch has taken over `signalNumber`.
  ///
  /// On Linux, Dispatch registers a signal source on its own thread after `resume()` returns,
  /// by installing a handler of its own in place of the `SIG_IGN` above. Until then the
  /// signal is discarded, so a Ctrl-C right after start-up on a busy machine would be lost.
  /// Darwin's kqueue sees ignored signals, and keeps `SIG_IGN` installed: nothing to wait for.
  private static func awaitRegistration(of signalNumber: Int32) {
    #if os(Linux)
      // Bounded, so that a Dispatch that registers differently only costs a second.
      for _ in 0..<1000 {
        var current = sigaction()
        sigaction(signalNumber, nil, &current)
        let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        if handler != unsafeBitCast(SIG_IGN, to: Int.self) { return }
        usleep(1000)
      }
    #endif
  }
}
