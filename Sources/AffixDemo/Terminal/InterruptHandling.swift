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
  static func install(restoring screen: Screen) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { signalNumber in
      // The default action would kill the process before the source could restore anything.
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler {
        screen.clearLive()
        screen.restore()
        Terminal.write("\ninterrupted\n")
        exit(128 + signalNumber)
      }
      source.resume()
      return source
    }
  }
}
