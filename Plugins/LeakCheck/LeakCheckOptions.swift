/// The plugin's command line: its own options, then anything after `--` for `swift test`.
struct LeakCheckOptions {
  static let usage = """
    USAGE: swift package leak-check [--target <target>]... [--filter <pattern>]
                                    [--sanitize=address] [-- <swift test options>]

    Runs the package's leak checks, the Swift Testing tests tagged `.leakCheck` or marked
    `.checksLeaks` (or in a suite tagged or marked so) in any of its test targets, with
    `swift test`, and fails on any leak or test failure, or when no leak check ran.

    OPTIONS:
      --target <target>         Runs only the leak checks in this test target (repeatable).
      --filter <pattern>        Runs only the leak checks whose identifier matches <pattern>,
                                a regular expression (Module.Suite/test()/File.swift:line:column).
      --sanitize=<sanitizer>    Runs the checks under a sanitizer: address (whose LeakSanitizer
                                also checks the whole process at exit) or thread.
      -h, --help                Shows this help.
      -- <options>              Passes the remaining options to `swift test`.
    """

  var sanitizer: String?
  var filter: String?
  var targets: [String] = []
  var passthrough: [String] = []
  var showsHelp = false

  init(parsing arguments: [String]) throws {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--":
        passthrough = Array(remaining)
        return
      case "--sanitize":
        // `swift package` reads `--sanitize` too and rejects it without a value, so
        // `--sanitize address` is accepted as well as `--sanitize=address`.
        if let value = remaining.first, !value.hasPrefix("-") {
          sanitizer = value
          remaining.removeFirst()
        } else {
          sanitizer = "address"
        }
      case _ where argument.hasPrefix("--sanitize="):
        sanitizer = String(argument.dropFirst("--sanitize=".count))
      case "--filter":
        filter = try value(of: argument, in: &remaining)
      case "--target":
        targets.append(try value(of: argument, in: &remaining))
      case _ where argument.hasPrefix("--target="):
        targets.append(String(argument.dropFirst("--target=".count)))
      case "-h", "--help":
        showsHelp = true
      default:
        throw LeakCheckFailure(
          message: "leak-check: unknown option '\(argument)' (put swift test options after --)"
        )
      }
    }
  }

  private func value(of option: String, in remaining: inout ArraySlice<String>) throws -> String {
    guard let value = remaining.popFirst(), !value.hasPrefix("-") else {
      throw LeakCheckFailure(message: "leak-check: \(option) needs a value")
    }
    return value
  }

  /// The options every `swift` invocation shares, so that listing and running use one build.
  func buildArguments(packagePath: String, scratchPath: String) -> [String] {
    var arguments = ["--package-path", packagePath, "--scratch-path", scratchPath]
    if let sanitizer {
      arguments.append("--sanitize=\(sanitizer)")
    }
    return arguments
  }
}
