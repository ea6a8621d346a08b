import Affix

/// Where a public call was made, for a report that names the caller's line.
struct ReportSite: Sendable {
  let fileID: String
  let line: Int
}

/// Reports bad input or a call in the wrong state under the "drag" subsystem, at `site` when
/// the entry point takes the caller's line, else at the library's.
func diagnose(_ message: String, at site: ReportSite? = nil) {
  if let site {
    Diagnostics.report(
      subsystem: DragController.subsystem, message: message, fileID: site.fileID, line: site.line)
  } else {
    Diagnostics.report(subsystem: DragController.subsystem, message: message)
  }
}
