import AffixLoading
import AffixLoadingTesting
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

final class Transcript: Sendable {
  private let text = Mutex("")
  var all: String { text.withLock { $0 } }
  func write(_ piece: String) { text.withLock { $0 += piece } }
}

@Suite struct TerminalSpinnerTests {
  @Test func plainOutputHasNoControlCodes() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: false, write: transcript.write)
    spinner.appear(message: "Fetching")
    spinner.tick(frame: 1, angle: 0.4)
    spinner.tick(frame: 2, angle: 0.8)
    spinner.disappear(outcome: .success)
    #expect(transcript.all == "Fetching...\nFetching: done\n")
    #expect(!transcript.all.contains("\u{1B}"))
    #expect(!transcript.all.contains("\r"))
  }

  @Test(arguments: [
    (LoadingOutcome.success, "done"), (.failure(DiskFull()), "failed: disk full"),
    (.cancelled, "cancelled"),
  ])
  func plainOutputNamesTheOutcome(outcome: LoadingOutcome, word: String) {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: false, write: transcript.write)
    spinner.appear(message: nil)
    spinner.disappear(outcome: outcome)
    #expect(transcript.all == "Working...\nWorking: \(word)\n")
  }

  @Test func terminalRedrawsOneLineAndLeavesItClean() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(
      isTerminal: true, frames: ["a", "b", "c"], write: transcript.write)
    spinner.appear(message: "Build")
    spinner.tick(frame: 1, angle: 0.4)
    spinner.tick(frame: 2, angle: 0.8)
    spinner.tick(frame: 3, angle: 1.2)
    spinner.disappear(outcome: .failure(DiskFull()))
    let clear = "\r\u{1B}[2K"
    let (hide, show) = ("\u{1B}[?25l", "\u{1B}[?25h")
    #expect(
      transcript.all
        == "\(hide)\(clear)a Build\(clear)b Build\(clear)c Build\(clear)a Build\(clear)✖ Build: disk full\n\(show)"
    )
    #expect(transcript.all.filter { $0 == "\n" }.count == 1)
  }

  @Test func terminalCancellationErasesTheLine() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: true, write: transcript.write)
    spinner.appear(message: nil)
    spinner.disappear(outcome: .cancelled)
    #expect(transcript.all.hasSuffix("\r\u{1B}[2K\u{1B}[?25h"))
    #expect(!transcript.all.contains("\n"))
  }

  @Test(arguments: [LoadingOutcome.success, .failure(DiskFull()), .cancelled])
  func theCursorIsHiddenWhileSpinningAndShownAfterEveryOutcome(outcome: LoadingOutcome) {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: true, write: transcript.write)
    spinner.appear(message: "Build")
    #expect(transcript.all.hasPrefix("\u{1B}[?25l"))
    #expect(!transcript.all.contains("\u{1B}[?25h"))
    spinner.disappear(outcome: outcome)
    #expect(transcript.all.hasSuffix("\u{1B}[?25h"))
  }

  @Test func aSpinnerReleasedWhileShownGivesTheCursorBack() {
    let transcript = Transcript()
    do {
      let spinner = TerminalSpinner(isTerminal: true, write: transcript.write)
      spinner.appear(message: "Build")
    }
    #expect(transcript.all.hasSuffix("\r\u{1B}[2K\u{1B}[?25h"))
  }

  @Test func linesAreCutToTheTerminalWidthSoThatTheyNeverWrap() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(
      isTerminal: true, frames: ["a"], columns: { 10 }, write: transcript.write)
    spinner.appear(message: "Resolving packages")
    spinner.tick(frame: 1, angle: 0.4)
    spinner.disappear(outcome: .success)
    let lines = transcript.all.split(separator: "\r").map {
      $0.replacing("\u{1B}[2K", with: "").replacing("\u{1B}[?25l", with: "")
        .replacing("\u{1B}[?25h", with: "").replacing("\n", with: "")
    }.filter { !$0.isEmpty }
    #expect(lines == ["a Resolv…", "a Resolv…", "✔ Resolv…"])
    #expect(lines.allSatisfy { $0.count < 10 })
  }

  @Test func theMessageCanChangeWhileVisible() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: true, frames: ["a", "b"], write: transcript.write)
    spinner.appear(message: "Fetching")
    spinner.tick(frame: 1, angle: 0.4)
    spinner.update(message: "Linking")
    spinner.disappear(outcome: .success)
    #expect(transcript.all.contains("\r\u{1B}[2Kb Linking"))
    #expect(transcript.all.contains("✔ Linking\n"))

    let plain = Transcript()
    let piped = TerminalSpinner(isTerminal: false, write: plain.write)
    piped.appear(message: "Fetching")
    piped.update(message: "Linking")
    piped.disappear(outcome: .success)
    #expect(plain.all == "Fetching...\nLinking...\nLinking: done\n")
  }

  @Test func writesToATextOutputStream() {
    let spinner = TerminalSpinner(output: String(), isTerminal: false)
    spinner.appear(message: "x")
    spinner.disappear(outcome: .success)
    // A String is a value: the spinner writes its own copy, and must not crash doing so.
    let transcript = Transcript()
    struct Forward: TextOutputStream {
      let transcript: Transcript
      mutating func write(_ string: String) { transcript.write(string) }
    }
    let forwarding = TerminalSpinner(output: Forward(transcript: transcript), isTerminal: false)
    forwarding.appear(message: "y")
    #expect(transcript.all == "y...\n")
  }

  @Test func emptyFrameListFallsBackToTheDefaultFrames() {
    let spinner = TerminalSpinner(isTerminal: true, frames: []) { _ in }
    #expect(spinner.frames == TerminalSpinner.defaultFrames)
  }
}

@Suite struct RecordingIndicatorTests {
  @Test func recordsEveryCallInOrder() {
    let indicator = RecordingIndicator()
    #expect(!indicator.isShown)
    indicator.appear(message: "m")
    indicator.tick(frame: 1, angle: 0.4)
    #expect(indicator.isShown)
    indicator.disappear(outcome: .success)
    #expect(!indicator.isShown)
    #expect(
      indicator.events == [
        .appear(message: "m"), .tick(frame: 1, angle: 0.4), .disappear(outcome: .success),
      ])
    #expect(indicator.transitions.count == 2)
    #expect(indicator.tickCount == 1)
  }
}

/// The spinners' `SIGINT` and `SIGTERM` handling is process-wide, so these run one at a time;
/// no other test shows a spinner that writes to a file descriptor.
@Suite(.serialized) struct SpinnerSignalTests {
  /// A pipe standing in for the terminal: the spinner writes to one end, the test reads the
  /// other without blocking.
  private final class Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      (readEnd, writeEnd) = (ends[0], ends[1])
      _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
      close(readEnd)
      close(writeEnd)
    }

    /// What was written since the last read.
    func drain() -> String {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes += buffer[..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  private static let restore = "\r\u{1B}[2K\u{1B}[?25h"

  /// Requires the process's defaults, which the handling is installed over.
  private func requireDefaults() throws {
    for signalNumber in SpinnerSignals.signals {
      try #require(SpinnerSignals.hasDefaultDisposition(signalNumber))
    }
  }

  @Test func aShownSpinnerRestoresItsTerminalWhenASignalArrivesAndNotOnceItDisappeared() throws {
    try requireDefaults()
    let terminal = try Pipe()
    let spinner = TerminalSpinner(descriptor: terminal.writeEnd, isTerminal: true)
    spinner.appear(message: "Fetching")
    #expect(SpinnerSignals.signals.allSatisfy(SpinnerSignals.isHandling))
    _ = terminal.drain()

    // What the handler writes before it re-raises the signal with its default disposition.
    SpinnerSignals.restoreTerminals()
    #expect(terminal.drain() == Self.restore)

    spinner.disappear(outcome: .success)
    #expect(SpinnerSignals.signals.allSatisfy(SpinnerSignals.hasDefaultDisposition))
    _ = terminal.drain()
    SpinnerSignals.restoreTerminals()
    #expect(terminal.drain() == "")
  }

  @Test func theHandlingStaysUntilTheLastShownSpinnerGoesAwayEvenByRelease() throws {
    try requireDefaults()
    let first = try Pipe()
    let second = try Pipe()
    let kept = TerminalSpinner(descriptor: first.writeEnd, isTerminal: true)
    kept.appear(message: "One")
    kept.appear(message: "One again")
    do {
      let released = TerminalSpinner(descriptor: second.writeEnd, isTerminal: true)
      released.appear(message: "Two")
      kept.disappear(outcome: .cancelled)
      #expect(SpinnerSignals.isHandling(SIGINT))
      _ = (first.drain(), second.drain())
      SpinnerSignals.restoreTerminals()
      #expect(first.drain() == "" && second.drain() == Self.restore)
    }
    #expect(SpinnerSignals.signals.allSatisfy(SpinnerSignals.hasDefaultDisposition))
  }

  @Test func aProcessThatHandlesASignalItselfKeepsItsHandler() throws {
    try requireDefaults()
    signal(SIGINT, ownHandler)
    defer { signal(SIGINT, SIG_DFL) }
    let terminal = try Pipe()
    let spinner = TerminalSpinner(descriptor: terminal.writeEnd, isTerminal: true)
    spinner.appear(message: "Fetching")
    #expect(!SpinnerSignals.isHandling(SIGINT) && SpinnerSignals.isHandling(SIGTERM))
    spinner.disappear(outcome: .failure(DiskFull()))
    #expect(!SpinnerSignals.hasDefaultDisposition(SIGINT))
    #expect(SpinnerSignals.hasDefaultDisposition(SIGTERM))
  }

  @Test func spinnersThatWriteThroughAClosureOrIntoAPipeInstallNothing() throws {
    try requireDefaults()
    let terminal = try Pipe()
    let throughClosure = TerminalSpinner(isTerminal: true) { _ in }
    let plain = TerminalSpinner(descriptor: terminal.writeEnd, isTerminal: false)
    throughClosure.appear(message: "One")
    plain.appear(message: "Two")
    #expect(SpinnerSignals.signals.allSatisfy(SpinnerSignals.hasDefaultDisposition))
    throughClosure.disappear(outcome: .success)
    plain.disappear(outcome: .success)
  }
}

/// A handler of the process's own, which the spinners must leave in place.
private func ownHandler(_ signalNumber: Int32) {}
