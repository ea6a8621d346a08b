import Affix
import Foundation

// affix-badinput: the project's own bad-input suite.
//
//   affix-badinput                      run every case, each in a child process
//   affix-badinput --write-table PATH   and write the results table there
//   affix-badinput --filter TEXT        only the cases whose name contains TEXT
//   affix-badinput --list               print every case's name and class
//   affix-badinput --case NAME          run one case here (what the children do)
//   --jobs N (2), --timeout SECONDS (10), --verbose

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
  guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
  return arguments[at + 1]
}

if let name = option("--case") {
  Diagnostics.setHandler { DiagnosticLog.shared.record($0) }
  await runCase(named: name, in: allCases())
}

let cases = allCases()

let names = Set(cases.map(\.name))
guard names.count == cases.count else {
  let repeated = Dictionary(grouping: cases.map(\.name), by: { $0 }).filter { $0.value.count > 1 }
  print("case names are not unique: \(repeated.keys.sorted())")
  exit(2)
}

if arguments.contains("--list") {
  for found in cases { print("\(found.kind.rawValue)\t\(found.name)") }
  exit(0)
}

let filter = option("--filter")
let selected = cases.filter { filter == nil || $0.name.contains(filter!) }
let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
let runner = Runner(
  executable: executable, jobs: option("--jobs").flatMap(Int.init) ?? 2,
  timeout: .seconds(option("--timeout").flatMap(Int.init) ?? 10),
  verbose: arguments.contains("--verbose"))
let tally = Tally(
  results: runner.run(
    selected.map { CaseHeader(name: $0.name, module: $0.module, entry: $0.entry, kind: $0.kind) }
  ))
print(tally.summary)
if let path = option("--write-table") {
  do {
    try tally.markdown.write(toFile: path, atomically: true, encoding: .utf8)
  } catch {
    print("could not write \(path): \(error)")
    exit(2)
  }
}
let failed = tally.failures.count
print(
  failed == 0
    ? "bad-input suite: all \(tally.results.count) cases passed"
    : "bad-input suite: \(failed) cases failed")
exit(failed == 0 ? 0 : 1)
