import Affix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A spinner for command-line tools: one line redrawn in place on each tick, left clean at the
/// end.
///
/// When the output is not a terminal, it writes plain lines with no control codes. On a
/// terminal it draws `⠋ Fetching packages`, turns the first character at each tick, and ends
/// with `✔ Fetching packages` (or `✖ Fetching packages: ` and the error, on failure) on a
/// line of its own. Once the work reports progress, the line carries a bar and a percentage
/// before the message: `⠋ [██████░░░░░░░░░░░░░░]  30% Fetching packages`. The line is cut
/// to the terminal's width, so that it never wraps (a wrapped line cannot be redrawn in place),
/// and the cursor is hidden while it spins and shown again whenever it stops: at every outcome,
/// if the spinner is released while shown, and, for a spinner on standard error
/// (``standardError()``), when Ctrl-C (`SIGINT`) or `SIGTERM` ends the process while it is
/// shown. Into a pipe or a log file it writes
/// `Fetching packages...` when it appears (and for each new message), `Fetching packages: 30%`
/// each time the progress passes another tenth, and `Fetching packages: done` (or
/// `failed: ` and the error, `cancelled`) when it disappears, and nothing per tick.
///
/// ```swift
/// let spinner = TerminalSpinner.standardError()
/// let loading = LoadingController(indicator: spinner, clock: DispatchClock(queue: queue))
/// loading.start(message: "Fetching packages")
/// loading.update(progress: 12.0 / 40)
/// ```
public final class TerminalSpinner: LoadingIndicator, Sendable {
  /// The frames drawn in turn on a terminal.
  public static let defaultFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Whether the spinner draws in place with control codes (`true`) or writes plain lines.
  public let isTerminal: Bool

  /// The frames drawn in turn on a terminal.
  public let frames: [String]

  private let write: @Sendable (String) -> Void
  /// The file descriptor `write` writes to, if known: a signal handler can restore only a
  /// terminal it can write to without calling `write`.
  private let descriptor: Int32?
  private let columns: @Sendable () -> Int?
  private let shown = LockedState(Shown())

  private struct Shown {
    var isVisible = false
    var message: String?
    var frame = 0
    var progress: Double?
    /// The last tenth of the progress written as a plain line.
    var tenthWritten: Int?
  }

  /// The number of cells in the progress bar.
  private static let barWidth = 20

  private static let clearLine = "\r\u{1B}[2K"
  private static let hideCursor = "\u{1B}[?25l"
  private static let showCursor = "\u{1B}[?25h"

  /// Creates a spinner that hands its text to `write`.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the text goes to a terminal, which can redraw a line in place.
  ///   - frames: The frames to draw in turn; an empty list draws the default ones.
  ///   - columns: The terminal's width in columns, asked before each line is drawn; `nil` (or
  ///     a closure returning `nil`) draws lines whole.
  ///   - write: Receives each piece of text, in order, on the loading clock's context.
  public convenience init(
    isTerminal: Bool, frames: [String] = defaultFrames,
    columns: @escaping @Sendable () -> Int? = { nil },
    write: @escaping @Sendable (String) -> Void
  ) {
    self.init(
      isTerminal: isTerminal, frames: frames, columns: columns, descriptor: nil, write: write)
  }

  /// Creates a spinner that writes to the file descriptor `descriptor`, which the spinners'
  /// `SIGINT` and `SIGTERM` handling restores when a signal ends the process while it is shown.
  package convenience init(
    descriptor: Int32, isTerminal: Bool, frames: [String] = defaultFrames,
    columns: @escaping @Sendable () -> Int? = { nil }
  ) {
    self.init(
      isTerminal: isTerminal, frames: frames, columns: columns, descriptor: descriptor
    ) { writeText($0, to: descriptor) }
  }

  private init(
    isTerminal: Bool, frames: [String], columns: @escaping @Sendable () -> Int?,
    descriptor: Int32?, write: @escaping @Sendable (String) -> Void
  ) {
    self.isTerminal = isTerminal
    self.frames = frames.isEmpty ? Self.defaultFrames : frames
    self.columns = columns
    self.descriptor = descriptor
    self.write = write
  }

  /// Creates a spinner that writes to `output`, which it keeps for the rest of its life.
  public convenience init(
    output: sending any TextOutputStream, isTerminal: Bool, frames: [String] = defaultFrames
  ) {
    let stream = StreamBox(output)
    self.init(isTerminal: isTerminal, frames: frames) { stream.write($0) }
  }

  /// A spinner on standard error, drawing in place, cut to the terminal's width, only if
  /// standard error is a terminal.
  ///
  /// While it is shown on a terminal, Ctrl-C (`SIGINT`) or `SIGTERM` clears its line and shows
  /// the cursor before ending the process as the signal would have (its default disposition,
  /// so the shell sees the signal's status). That handling is installed when the first such
  /// spinner appears and removed when the last one disappears, and only for a signal whose
  /// disposition is the default: a process that handles or ignores the signal keeps its own
  /// handling, and restores the terminal itself.
  public static func standardError() -> TerminalSpinner {
    TerminalSpinner(descriptor: 2, isTerminal: isatty(2) == 1, columns: terminalColumns)
  }

  // Released while shown (its controller's host died, say): give the cursor back.
  deinit {
    if isTerminal, shown.withLock({ $0.isVisible }) {
      write(Self.clearLine + Self.showCursor)
      if let descriptor { SpinnerSignals.spinnerHidden(on: descriptor) }
    }
  }

  /// `true`: the spinner turns its frame at each tick.
  public var wantsTicks: Bool { true }

  /// Draws the first frame, or writes the message as a plain line.
  public func appear(message: String?) {
    let wasVisible = shown.withLock { state in
      defer { state = Shown(isVisible: true, message: message, frame: 0) }
      return state.isVisible
    }
    if isTerminal {
      // Before the cursor is hidden, so that a signal from then on finds it restored.
      if !wasVisible, let descriptor { SpinnerSignals.spinnerShown(on: descriptor) }
      write(Self.hideCursor + Self.clearLine + line(frames[0], message))
    } else {
      write((message ?? "Working") + "...\n")
    }
  }

  /// Redraws the line with the next frame; writes nothing when not on a terminal.
  ///
  /// Any `frame` names one of ``frames``, counted round them both ways: -1 is the last.
  public func tick(frame: Int, angle: Double) {
    guard isTerminal else { return }
    let (message, progress) = shown.withLock { state in
      state.frame = frame
      return (state.message, state.progress)
    }
    write(Self.clearLine + line(frames[wrapped(frame)], message, progress))
  }

  /// The index of the frame `frame` names: its remainder, never negative.
  private func wrapped(_ frame: Int) -> Int {
    let remainder = frame % frames.count
    return remainder < 0 ? remainder + frames.count : remainder
  }

  /// Shows `message` from now on: redraws the line, or writes it as a plain line.
  public func update(message: String?) {
    let shownNow = shown.withLock { state -> (frame: Int, progress: Double?)? in
      guard state.isVisible else { return nil }
      state.message = message
      return (state.frame, state.progress)
    }
    guard let shownNow else { return }
    if isTerminal {
      write(
        Self.clearLine + line(frames[wrapped(shownNow.frame)], message, shownNow.progress))
    } else {
      write((message ?? "Working") + "...\n")
    }
  }

  /// Draws the progress as a bar and a percentage before the message, or removes them when
  /// `fraction` is `nil`.
  ///
  /// Into a pipe, it writes a line each time the progress passes another tenth.
  ///
  /// - Parameter fraction: How far the work is, in `0...1`; `nil` when it is indeterminate.
  public func update(progress fraction: Double?) {
    let clamped = fraction.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
    let shownNow = shown.withLock {
      state -> (frame: Int, message: String?, plainLine: Bool)? in
      guard state.isVisible else { return nil }
      state.progress = clamped
      guard let clamped else { return (state.frame, state.message, false) }
      let tenth = Int(clamped * 10)
      let passed = state.tenthWritten.map { tenth > $0 } ?? true
      if passed { state.tenthWritten = tenth }
      return (state.frame, state.message, passed)
    }
    guard let shownNow else { return }
    if isTerminal {
      write(
        Self.clearLine + line(frames[shownNow.frame % frames.count], shownNow.message, clamped))
    } else if shownNow.plainLine, let clamped {
      write((shownNow.message ?? "Working") + ": " + Self.percentage(clamped) + "\n")
    }
  }

  /// Leaves a clean final line saying how the work ended, and shows the cursor again.
  public func disappear(outcome: LoadingOutcome) {
    let (message, wasVisible) = shown.withLock { state in
      defer { state = Shown() }
      return (state.message, state.isVisible)
    }
    if isTerminal {
      switch outcome {
      case .success:
        write(Self.clearLine + line("✔", message) + "\n" + Self.showCursor)
      case .failure(let error):
        let failed = (message ?? "Failed") + ": " + String(describing: error)
        write(Self.clearLine + line("✖", failed) + "\n" + Self.showCursor)
      case .cancelled:
        write(Self.clearLine + Self.showCursor)
      }
      // After the cursor is shown, so that a signal until then still finds it restored.
      if wasVisible, let descriptor { SpinnerSignals.spinnerHidden(on: descriptor) }
    } else {
      let ending =
        switch outcome {
        case .success: "done"
        case .failure(let error): "failed: " + String(describing: error)
        case .cancelled: "cancelled"
        }
      write((message ?? "Working") + ": " + ending + "\n")
    }
  }

  /// The symbol, the progress bar if the progress is determinate, and the message, cut so
  /// that the line fits the terminal without wrapping.
  private func line(_ symbol: String, _ message: String?, _ progress: Double? = nil) -> String {
    let text = [progress.map(Self.bar), message].compactMap { $0 }
    let whole = ([symbol] + text).joined(separator: " ")
    // The last column is left free: writing it makes some terminals wrap at once.
    guard let width = columns(), width > 1, whole.count > width - 1 else { return whole }
    guard width > 2 else { return String(whole.prefix(width - 1)) }
    return String(whole.prefix(width - 2)) + "…"
  }
}

extension TerminalSpinner {
  /// `[██████░░░░░░░░░░░░░░]  30%`: the bar, then the percentage right-aligned in four columns.
  fileprivate static func bar(_ fraction: Double) -> String {
    let filled = Int((fraction * Double(barWidth)).rounded(.down))
    let cells =
      String(repeating: "█", count: filled)
      + String(repeating: "░", count: barWidth - filled)
    let percent = percentage(fraction)
    return "[" + cells + "] " + String(repeating: " ", count: 4 - percent.count) + percent
  }

  /// The whole percent done, rounded down so that 100% means done: `30%`.
  fileprivate static func percentage(_ fraction: Double) -> String {
    String(Int((fraction * 100).rounded(.down))) + "%"
  }
}

/// Serialises writes to a `TextOutputStream`, which the spinner owns from its creation on.
private final class StreamBox: Sendable {
  private let output: LockedState<any TextOutputStream>

  init(_ output: sending any TextOutputStream) {
    self.output = LockedState(output)
  }

  func write(_ text: String) {
    // The stream is the state this lock guards; writing it is all the lock is for.
    output.withLock { $0.write(text) }
  }
}

private func writeText(_ text: String, to descriptor: Int32) {
  var text = text
  text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

@Sendable private func terminalColumns() -> Int? {
  var size = winsize()
  guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
  return Int(size.ws_col)
}
