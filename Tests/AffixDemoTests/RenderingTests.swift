import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Rendering on a terminal and off it")
struct RenderingTests {
  static let showCursor = "\u{1B}[?25h"
  static let hideCursor = "\u{1B}[?25l"

  @Test func pipedOutputHasNoControlCodes() throws {
    let run = try DemoRun.run(["leaks", "--speed", "200"])
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
  }

  @Test func aTerminalGetsControlCodesAndItsCursorBack() throws {
    let run = try DemoRun.run(
      ["leaks", "--speed", "200"], environment: ["AFFIX_DEMO_ASSUME_TERMINAL": "1"])
    #expect(run.status == 0, "\(run.summary)")
    #expect(run.output.hasPrefix(Self.hideCursor), "\(run.summary)")
    #expect(run.output.hasSuffix(Self.showCursor), "\(run.summary)")
  }

  @Test(arguments: [["NO_COLOR": "1"], ["NO_COLOR": "yes"]])
  func noColorMeansPlainLinesEvenOnATerminal(environment: [String: String]) throws {
    let run = try DemoRun.run(
      ["leaks", "--speed", "200"],
      environment: environment.merging(["AFFIX_DEMO_ASSUME_TERMINAL": "1"]) { $1 }, removing: [])
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
  }

  @Test func thePlainOptionMeansPlainLinesEvenOnATerminal() throws {
    let run = try DemoRun.run(
      ["leaks", "--plain", "--speed", "200"], environment: ["AFFIX_DEMO_ASSUME_TERMINAL": "1"])
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
  }

  @Test func ctrlCRestoresTheCursorAndExitsWithTheSignalStatus() throws {
    let process = Process()
    process.executableURL = try DemoRun.executable()
    process.arguments = ["--speed", "1"]
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    environment["AFFIX_DEMO_ASSUME_TERMINAL"] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Interrupt as early as the demo promises to handle it: once it has hidden the cursor,
    // which it does only after installing its handlers.
    var output = Data()
    while !String(decoding: output, as: UTF8.self).hasPrefix(Self.hideCursor) {
      let chunk = pipe.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      output.append(chunk)
    }
    kill(process.processIdentifier, SIGINT)
    output.append(pipe.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    let text = String(decoding: output, as: UTF8.self)
    #expect(process.terminationStatus == 128 + SIGINT, "\(text)")
    #expect(text.hasPrefix(Self.hideCursor), "\(text)")
    #expect(text.contains(Self.showCursor + "\ninterrupted"), "\(text)")
  }
}
