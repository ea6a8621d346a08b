import AffixLoading
import Synchronization
import Testing

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
    (LoadingOutcome.success, "done"), (.failure, "failed"), (.cancelled, "cancelled"),
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
    spinner.disappear(outcome: .failure)
    let clear = "\r\u{1B}[2K"
    #expect(
      transcript.all
        == "\(clear)a Build\(clear)b Build\(clear)c Build\(clear)a Build\(clear)✖ Build\n")
    #expect(transcript.all.filter { $0 == "\n" }.count == 1)
  }

  @Test func terminalCancellationErasesTheLine() {
    let transcript = Transcript()
    let spinner = TerminalSpinner(isTerminal: true, write: transcript.write)
    spinner.appear(message: nil)
    spinner.disappear(outcome: .cancelled)
    #expect(transcript.all.hasSuffix("\r\u{1B}[2K"))
    #expect(!transcript.all.contains("\n"))
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
