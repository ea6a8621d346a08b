#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the demo draws: with ANSI control codes on a terminal, or as plain lines elsewhere.
enum OutputMode: Sendable, Equatable {
  /// Colours, a hidden cursor and lines redrawn in place.
  case ansi
  /// One line per step and not a single control code, for pipes, files, CI logs and `NO_COLOR`.
  case plain

  /// ANSI when standard output is a terminal and `NO_COLOR` is unset or empty, plain otherwise.
  ///
  /// `NO_COLOR` (https://no-color.org) asks for no colour; the demo drops every other control
  /// code with it too, since a reader who sets it usually pipes or records the output.
  /// `AFFIX_DEMO_ASSUME_TERMINAL=1` treats a pipe as a terminal: the tests' way to see the
  /// terminal rendering without a pseudo-terminal.
  static func detect(environment: [String: String]) -> OutputMode {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
    if environment["AFFIX_DEMO_ASSUME_TERMINAL"] == "1" { return .ansi }
    return isatty(STDOUT_FILENO) == 1 ? .ansi : .plain
  }
}

/// Raw, unbuffered writes to the standard streams, so that what is drawn appears at once and
/// nothing is lost when the process exits from a signal handler.
enum Terminal {
  static func write(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  static func writeError(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, base + offset, bytes.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
  #else
    Darwin.write(descriptor, bytes, count)
  #endif
}
