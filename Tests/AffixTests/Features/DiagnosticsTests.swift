import Affix
import Testing

@Suite struct DiagnosticsTests {
  @Test func aScopedHandlerCapturesReportsMadeInsideItsScope() {
    let seen = Recording<Diagnostic>()
    Diagnostics.withHandler({ seen.append($0) }) {
      Diagnostics.report("core", "first")
      Diagnostics.report(Diagnostic(subsystem: "dance", message: "second"))
    }
    #expect(
      seen.values == [
        Diagnostic(subsystem: "core", message: "first"),
        Diagnostic(subsystem: "dance", message: "second"),
      ])
  }

  @Test func aScopedHandlerMissesReportsMadeOutsideItsScope() {
    let seen = Recording<Diagnostic>()
    Diagnostics.withHandler({ seen.append($0) }) {}
    Diagnostics.withHandler({ _ in }) {
      Diagnostics.report("core", "to the other handler")
    }
    #expect(seen.values.isEmpty)
  }

  @Test func theInnermostScopedHandlerWins() {
    let outer = Recording<String>()
    let inner = Recording<String>()
    Diagnostics.withHandler({ outer.append($0.message) }) {
      Diagnostics.withHandler({ inner.append($0.message) }) {
        Diagnostics.report("core", "inner")
      }
      Diagnostics.report("core", "outer")
    }
    #expect(outer.values == ["outer"])
    #expect(inner.values == ["inner"])
  }

  @Test func aScopedHandlerReachesChildTasks() async {
    let seen = Recording<String>()
    await Diagnostics.withHandler({ seen.append($0.message) }) {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<3 {
          group.addTask { Diagnostics.report("core", "child \(index)") }
        }
      }
    }
    #expect(Set(seen.values) == ["child 0", "child 1", "child 2"])
  }

  @Test func reportingWithoutAHandlerDoesNotCrash() {
    Diagnostics.report("core", "printed to standard error by the default handler (expected)")
  }

  @Test func aDiagnosticDescribesItselfWithItsSubsystem() {
    let diagnostic = Diagnostic(subsystem: "loading", message: "stop without start")
    #expect(diagnostic.description == "affix[loading]: stop without start")
  }
}
