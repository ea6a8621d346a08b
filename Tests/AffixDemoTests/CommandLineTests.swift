import Testing

@Suite("The command line")
struct CommandLineTests {
  @Test func helpDescribesEveryScene() throws {
    let run = try DemoRun.run(["--help"])
    #expect(run.status == 0, "\(run.summary)")
    #expect(run.linesWiderThanATerminal.isEmpty, "\(run.linesWiderThanATerminal)")
    for scene in ["loading", "dancing", "draggable", "leaks", "plot", "--speed", "NO_COLOR"] {
      #expect(run.output.contains(scene), "\(run.summary)")
    }
  }

  @Test(arguments: ["0", "-2", "nan", "inf", "fast"])
  func aSpeedThatIsNotAPositiveNumberIsAUsageError(speed: String) throws {
    let run = try DemoRun.run(["leaks", "--speed", speed])
    #expect(run.status == 2, "\(run.summary)")
    #expect(run.errorOutput.contains("--speed needs a positive number"), "\(run.summary)")
    #expect(run.output.isEmpty, "\(run.summary)")
  }

  @Test(arguments: [["juggling"], ["--fast"], ["leaks", "--speed"]])
  func anUnknownArgumentIsAUsageErrorWithTheUsage(arguments: [String]) throws {
    let run = try DemoRun.run(arguments)
    #expect(run.status == 2, "\(run.summary)")
    #expect(run.errorOutput.contains("usage: affix-demo"), "\(run.summary)")
    #expect(run.linesWiderThanATerminal.isEmpty, "\(run.linesWiderThanATerminal)")
  }
}
