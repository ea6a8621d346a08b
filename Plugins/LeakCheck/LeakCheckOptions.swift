/// The plugin's command line: its own options, then anything after `--` for `swift test`.
struct LeakCheckOptions {
  static let testTarget = "LeakCheckTests"

  static let usage = """
    USAGE: swift package leak-check [--sanitize=address] [--filter <pattern>] [-- <swift test options>]

    Runs the \(testTarget) target with `swift test` and fails on any leak or test failure.

    OPTIONS:
      --sanitize=<sanitizer>    Runs the suite under a sanitizer: address (whose LeakSanitizer
                                also checks the whole process at exit) or thread.
      --filter <pattern>        Runs only the leak checks whose name matches <pattern>.
      -h, --help                Shows this help.
      -- <options>              Passes the remaining options to `swift test`.
    """

  var sanitizer: String?
  var filter: String?
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
        guard let pattern = remaining.popFirst() else {
          throw LeakCheckFailure(message: "leak-check: --filter needs a pattern")
        }
        filter = pattern
      case "-h", "--help":
        showsHelp = true
      default:
        throw LeakCheckFailure(
          message: "leak-check: unknown option '\(argument)' (put swift test options after --)"
        )
      }
    }
  }

  /// The `swift test` options: the suite (narrowed by `filter`), the sanitizer, the rest.
  var testArguments: [String] {
    // Several --filter options select the union, so a pattern narrows the one filter instead.
    var arguments = ["--filter", filter.map { "\(Self.testTarget)\\..*\($0)" } ?? Self.testTarget]
    if let sanitizer {
      arguments.append("--sanitize=\(sanitizer)")
    }
    return arguments + passthrough
  }
}
