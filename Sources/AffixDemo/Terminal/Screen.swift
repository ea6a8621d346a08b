import Affix

/// Draws the demo: a permanent line for each step, and a live region redrawn in place.
///
/// In ``OutputMode/plain`` only the permanent lines are written, without a single control
/// code, so a log shows every step and nothing else. Safe from any thread: a frame-clock
/// subscriber may draw while the scene's thread writes a step.
final class Screen: Sendable {
  /// A text attribute, drawn only in ``OutputMode/ansi``.
  enum Style: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"
  }

  private struct State {
    var liveLineCount = 0
    var cursorHidden = false
    /// Set by ``interrupt()``: the scenes' later writes are dropped.
    var isClosed = false
  }

  let mode: OutputMode
  private let state = LockedState(State())

  init(mode: OutputMode) {
    self.mode = mode
  }

  /// `text` in `styles` on a terminal, unchanged in plain mode.
  func paint(_ text: String, _ styles: Style...) -> String {
    guard mode == .ansi, !styles.isEmpty else { return text }
    let codes = styles.map(\.rawValue).joined(separator: ";")
    return "\u{1B}[\(codes)m\(text)\u{1B}[0m"
  }

  /// Hides the cursor while scenes draw; ``restore()`` shows it again.
  func begin() {
    guard mode == .ansi else { return }
    state.withLock { state in
      state.cursorHidden = true
      Terminal.write("\u{1B}[?25l")
    }
  }

  /// A scene's heading.
  func title(_ text: String) {
    permanent("\n" + paint("== \(text) ==", .bold, .cyan))
  }

  /// A line that says a step happened; it stays on screen.
  func step(_ text: String) {
    permanent(text)
  }

  /// A secondary line under a step.
  func detail(_ text: String) {
    permanent(paint("   \(text)", .dim))
  }

  /// Replaces the live region (the lines drawn by the previous call) with `lines`. Plain mode
  /// draws nothing: its readers get the steps only.
  func live(_ lines: [String]) {
    guard mode == .ansi else { return }
    state.withLock { state in
      guard !state.isClosed else { return }
      var output = Self.eraseLive(&state)
      for line in lines {
        output += line + "\n"
      }
      state.liveLineCount = lines.count
      Terminal.write(output)
    }
  }

  /// Removes the live region, so that the next step appears where it was.
  func clearLive() {
    guard mode == .ansi else { return }
    state.withLock { state in
      Terminal.write(Self.eraseLive(&state))
    }
  }

  /// Writes `text` as it is: for an indicator that draws its own line, such as a spinner.
  func raw(_ text: String) {
    state.withLock { state in
      guard !state.isClosed else { return }
      Terminal.write(Self.eraseLive(&state) + text)
    }
  }

  /// Ends the show on Ctrl-C: erases the live region, restores the terminal and says so in one
  /// write under the lock, so that a scene writing on another thread cannot come between them,
  /// and drops whatever the scenes write after.
  func interrupt() {
    state.withLock { state in
      var text = ""
      if mode == .ansi {
        text += Self.eraseLive(&state)
        if state.cursorHidden {
          state.cursorHidden = false
          text += "\u{1B}[0m\u{1B}[?25h"
        }
      }
      state.isClosed = true
      Terminal.write(text + "\ninterrupted\n")
    }
  }

  /// Shows the cursor and resets every attribute. Idempotent, and called on exit.
  func restore() {
    guard mode == .ansi else { return }
    state.withLock { state in
      guard state.cursorHidden else { return }
      state.cursorHidden = false
      Terminal.write("\u{1B}[0m\u{1B}[?25h")
    }
  }

  private func permanent(_ text: String) {
    let wrapped = Self.wrap(text)
    state.withLock { state in
      guard !state.isClosed else { return }
      Terminal.write(Self.eraseLive(&state) + wrapped + "\n")
    }
  }

  /// The widest line the demo writes, so that it reads in an 80-column terminal.
  static let width = 80

  /// `text` with each line wider than ``width`` broken at spaces, the rest of a broken line
  /// indented two columns past the line's own indentation. Control codes take no width; a
  /// word too long for any line (a path) is left whole where it stands.
  static func wrap(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map(wrap(line:))
      .joined(separator: "\n")
  }

  private static func wrap(line: Substring) -> String {
    guard columns(line) > width else { return String(line) }
    // The line's start, kept as it is: its control codes and indentation.
    var start = line.startIndex
    var indentation = 0
    var inEscape = false
    while start < line.endIndex {
      let character = line[start]
      if inEscape || character == "\u{1B}" {
        inEscape = character == "\u{1B}" || !character.isLetter
      } else if character == " " {
        indentation += 1
      } else {
        break
      }
      start = line.index(after: start)
    }
    let continuation = String(repeating: " ", count: indentation + 2)
    var result = String(line[..<start])
    var column = indentation
    var isFirstWord = true
    for word in line[start...].split(separator: " ", omittingEmptySubsequences: false) {
      let wordColumns = columns(word)
      if !isFirstWord, column + 1 + wordColumns > width,
        continuation.count + wordColumns <= width
      {
        result += "\n" + continuation + word
        column = continuation.count + wordColumns
      } else {
        result += (isFirstWord ? "" : " ") + word
        column += (isFirstWord ? 0 : 1) + wordColumns
      }
      isFirstWord = false
    }
    return result
  }

  /// The columns `text` takes on a terminal: its characters but its escape sequences
  /// (`ESC [ ... letter`).
  private static func columns(_ text: Substring) -> Int {
    var count = 0
    var inEscape = false
    for character in text {
      if inEscape || character == "\u{1B}" {
        inEscape = character == "\u{1B}" || !character.isLetter
      } else {
        count += 1
      }
    }
    return count
  }

  /// The codes that move back to the start of the live region and erase it.
  private static func eraseLive(_ state: inout State) -> String {
    guard state.liveLineCount > 0 else { return "" }
    defer { state.liveLineCount = 0 }
    return "\r\u{1B}[\(state.liveLineCount)A\u{1B}[J"
  }
}
