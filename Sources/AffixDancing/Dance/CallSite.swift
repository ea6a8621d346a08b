/// Where a public entry point was called, for its misuse reports.
struct CallSite: Sendable {
  let fileID: String
  let line: Int
}
