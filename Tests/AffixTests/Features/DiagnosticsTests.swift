import Affix
import AffixTestSupport
import Testing

@Suite struct DiagnosticsTests {
  /// A handler that appends what it receives to `recording`.
  private func recorder(_ recording: Recording<Diagnostic>) -> @Sendable (Diagnostic) -> Void {
    { recording.append($0) }
  }

  @Test func aScopedHandlerCapturesReportsMadeInsideItsScope() {
    let seen = Recording<Diagnostic>()
    Diagnostics.withHandler(recorder(seen)) {
      Diagnostics.report(subsystem: "core", message: "first")
      Diagnostics.report(Diagnostic(subsystem: "dance", message: "second"))
    }
    #expect(seen.values.map(\.subsystem) == ["core", "dance"])
    #expect(seen.values.map(\.message) == ["first", "second"])
  }

  @Test func aReportNamesTheCallSiteItWasGiven() {
    let seen = Recording<Diagnostic>()
    let reportLine = Diagnostics.withHandler(recorder(seen)) {
      Diagnostics.report(
        subsystem: "core", message: "passed through", severity: .error, fileID: "App/Card.swift",
        line: 7)
      Diagnostics.report(subsystem: "core", message: "here")
      return #line
    }
    #expect(seen.values.map(\.fileID) == ["App/Card.swift", "AffixTests/DiagnosticsTests.swift"])
    #expect(seen.values.first?.line == 7)
    #expect(seen.values.last?.line == reportLine - 1)
    #expect(seen.values.map(\.severity) == [.error, .warning])
  }

  @Test func aScopedHandlerMissesReportsMadeOutsideItsScope() {
    let seen = Recording<Diagnostic>()
    let other = Recording<Diagnostic>()
    Diagnostics.withHandler(recorder(seen)) {}
    Diagnostics.withHandler(recorder(other)) {
      Diagnostics.report(subsystem: "core", message: "to the other handler")
    }
    #expect(seen.values.isEmpty)
    #expect(other.count == 1)
  }

  @Test func theInnermostScopedHandlerWins() {
    let outer = Recording<Diagnostic>()
    let inner = Recording<Diagnostic>()
    Diagnostics.withHandler(recorder(outer)) {
      Diagnostics.withHandler(recorder(inner)) {
        Diagnostics.report(subsystem: "core", message: "inner")
      }
      Diagnostics.report(subsystem: "core", message: "outer")
    }
    #expect(outer.values.map(\.message) == ["outer"])
    #expect(inner.values.map(\.message) == ["inner"])
  }

  @Test func aScopedHandlerReachesChildTasks() async {
    let seen = Recording<Diagnostic>()
    await Diagnostics.withHandler(recorder(seen)) {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<3 {
          group.addTask { Diagnostics.report(subsystem: "core", message: "child \(index)") }
        }
      }
    }
    #expect(Set(seen.values.map(\.message)) == ["child 0", "child 1", "child 2"])
  }

  @Test func reportingWithoutAHandlerDoesNotCrash() {
    Diagnostics.report(
      subsystem: "core", message: "printed to standard error by the default handler (expected)")
  }

  @Test func aDiagnosticDescribesItselfWithItsSubsystem() {
    let diagnostic = Diagnostic(subsystem: "loading", message: "stop without start")
    #expect(diagnostic.description == "affix[loading]: stop without start")
    let error = Diagnostic(subsystem: "loading", message: "lost", severity: .error)
    #expect(error.description == "affix[loading]: error: lost")
    #expect(Diagnostic.Severity.warning < .error)
  }
}
