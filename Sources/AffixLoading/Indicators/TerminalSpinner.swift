import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A spinner for command-line tools: one line redrawn in place on each tick, left clean at the
/// end; plain lines with no control codes when the output is not a terminal.
///
/// On a terminal it draws `⠋ Fetching packages`, turns the first character at each tick, and
/// ends with `✔ Fetching packages` (or `✖` on failure) on a line of its own. Into a pipe or a
/// log file it writes `Fetching packages...` when it appears and `Fetching packages: done` (or
/// `failed`, `cancelled`) when it disappears, and nothing per tick.
///
/// ```swift
/// let spinner = TerminalSpinner.standardError()
/// let loading = LoadingController(indicator: spinner, scheduler: DispatchScheduler(queue: queue))
/// loading.start(message: "Fetching packages")
/// ```
public final class TerminalSpinner: LoadingIndicator {
  /// The frames drawn in turn on a terminal.
  public static let defaultFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Whether the spinner draws in place with control codes (`true`) or writes plain lines.
  public let isTerminal: Bool

  /// The frames drawn in turn on a terminal.
  public let frames: [String]

  private let write: @Sendable (String) -> Void
  private let message = Mutex<String?>(nil)

  /// Creates a spinner that hands its text to `write`.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the text goes to a terminal, which can redraw a line in place.
  ///   - frames: The frames to draw in turn; an empty list draws the default ones.
  ///   - write: Receives each piece of text, in order, on the loading scheduler's context.
  public init(
    isTerminal: Bool, frames: [String] = defaultFrames,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.isTerminal = isTerminal
    self.frames = frames.isEmpty ? Self.defaultFrames : frames
    self.write = write
  }

  /// Creates a spinner that writes to `output`, which it keeps for the rest of its life.
  public convenience init(
    output: sending any TextOutputStream, isTerminal: Bool, frames: [String] = defaultFrames
  ) {
    let stream = StreamBox(output)
    self.init(isTerminal: isTerminal, frames: frames) { stream.write($0) }
  }

  /// A spinner on standard error, drawing in place only if standard error is a terminal.
  public static func standardError() -> TerminalSpinner {
    TerminalSpinner(isTerminal: isatty(2) == 1, write: writeToStandardError)
  }

  /// Draws the first frame, or writes the message as a plain line.
  public func appear(message: String?) {
    self.message.withLock { $0 = message }
    if isTerminal {
      write("\r\u{1B}[2K" + line(frames[0], message))
    } else {
      write((message ?? "Working") + "...\n")
    }
  }

  /// Redraws the line with the next frame; writes nothing when not on a terminal.
  public func tick(frame: Int, angle: Double) {
    guard isTerminal else { return }
    let message = self.message.withLock { $0 }
    write("\r\u{1B}[2K" + line(frames[frame % frames.count], message))
  }

  /// Leaves a clean final line saying how the work ended.
  public func disappear(outcome: LoadingOutcome) {
    let message = self.message.withLock { state in
      defer { state = nil }
      return state
    }
    if isTerminal {
      switch outcome {
      case .success: write("\r\u{1B}[2K" + line("✔", message) + "\n")
      case .failure: write("\r\u{1B}[2K" + line("✖", message) + "\n")
      case .cancelled: write("\r\u{1B}[2K")
      }
    } else {
      let ending =
        switch outcome {
        case .success: "done"
        case .failure: "failed"
        case .cancelled: "cancelled"
        }
      write((message ?? "Working") + ": " + ending + "\n")
    }
  }

  private func line(_ symbol: String, _ message: String?) -> String {
    message.map { symbol + " " + $0 } ?? symbol
  }
}

/// Serialises writes to a `TextOutputStream`, which the spinner owns from its creation on.
private final class StreamBox: Sendable {
  private let output: Mutex<any TextOutputStream>

  init(_ output: sending any TextOutputStream) {
    self.output = Mutex(output)
  }

  func write(_ text: String) {
    // The stream is the state this lock guards; writing it is all the lock is for.
    output.withLock { $0.write(text) }
  }
}

@Sendable private func writeToStandardError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
