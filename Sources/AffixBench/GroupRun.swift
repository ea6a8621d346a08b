import Foundation

/// One benchmark group run by this executable in a child process: its figures printed as they
/// were, its verdicts kept for the end of the whole run.
struct GroupRun {
  var verdicts: [String] = []
  var met = 0
  var judged = 0

  /// Runs `group`, exiting with its status if it fails: a group that crashed measured nothing.
  init(_ group: String, quick: Bool) {
    let process = Process()
    process.executableURL =
      Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [group] + (quick ? ["--quick"] : [])
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      print("affix-bench: could not run the \(group) group: \(error)")
      exit(1)
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("targets.met: ") {
        // "targets.met: N of M"
        let counts = line.dropFirst("targets.met: ".count).split(separator: " ")
        met += Int(counts.first ?? "") ?? 0
        judged += Int(counts.last ?? "") ?? 0
      } else if line.hasPrefix("targets.") {
        verdicts.append(String(line))
      } else if !line.isEmpty {
        print(line)
      }
    }
    guard process.terminationStatus == 0 else {
      print("affix-bench: the \(group) group exited with \(process.terminationStatus)")
      exit(process.terminationStatus)
    }
  }
}
