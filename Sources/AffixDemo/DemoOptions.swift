/// What the command line asked for.
struct DemoOptions: Equatable, Sendable {
  /// One thing to show, in the order given.
  enum Command: Equatable, Sendable {
    case scene(SceneName)
    /// Writes the pictures into `directory`, or each into its home in the repository if nil.
    case plot(directory: String?)
  }

  /// A usage mistake, described for the user.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    let description: String
  }

  var commands: [Command] = SceneName.allCases.map(Command.scene)
  var speed = 1.0
  var virtualTime = false
  var plain = false
  var showHelp = false

  static let usage = """
    usage: affix-demo [loading] [dancing] [draggable] [tooltip] [layout] [leaks]
                      [--speed <factor>] [--virtual-time] [--plain]
           affix-demo plot [directory]

    Shows each Affix capability at work in the terminal. With no scene named,
    plays loading, dancing, draggable, tooltip, layout and leaks in turn: about
    half a minute at speed 1.

    scenes:
      loading      a spinner only for slow work: a fast task, a slow one, then a
                   failure
      dancing      a ball animated with an easing curve, paused, scrubbed,
                   reversed and finished, then a spring
      draggable    a card pressed off-centre, dragged, flung and springing back to
                   its snap point
      tooltip      a tooltip shown when the pointer rests and kept while it comes
                   back
      layout       cards pinned before the stage exists, attached to a header
                   that appears later, a width following a value
      leaks        short-lived hosts with values and capabilities: live counts
                   back to zero, and the leak checker's report, with a deliberate
                   retain cycle
      plot [dir]   writes SVG pictures of the timing curves and of a drag
                   (default: each where its guide shows it)

    options:
      --speed <factor>   plays scene time <factor> times as fast (default 1; 0.5
                         is slower)
      --virtual-time     plays scene time on a virtual clock, as fast as the
                         machine goes, the same however loaded it is (the tests)
      --plain            plain lines without control codes, even on a terminal
      -h, --help         shows this help

    Output is plain, too, when standard output is not a terminal or NO_COLOR is
    set. Every line fits an 80-column terminal.
    """

  /// Parses the arguments after the program's name.
  static func parse(_ arguments: [String]) -> Result<DemoOptions, UsageError> {
    var options = DemoOptions()
    var commands: [Command] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "-h", "--help", "help":
        options.showHelp = true
      case "--plain":
        options.plain = true
      case "--virtual-time":
        options.virtualTime = true
      case "--speed":
        guard index < arguments.count else {
          return .failure(UsageError(description: "--speed needs a value, such as --speed 4"))
        }
        switch parseSpeed(arguments[index]) {
        case .success(let speed): options.speed = speed
        case .failure(let error): return .failure(error)
        }
        index += 1
      case _ where argument.hasPrefix("--speed="):
        switch parseSpeed(String(argument.dropFirst("--speed=".count))) {
        case .success(let speed): options.speed = speed
        case .failure(let error): return .failure(error)
        }
      case "plot":
        var directory: String?
        if index < arguments.count, !arguments[index].hasPrefix("-"),
          SceneName(rawValue: arguments[index]) == nil, arguments[index] != "plot"
        {
          directory = arguments[index]
          index += 1
        }
        commands.append(.plot(directory: directory))
      default:
        if let scene = SceneName(rawValue: argument) {
          commands.append(.scene(scene))
        } else if argument.hasPrefix("-") {
          return .failure(UsageError(description: "unknown option '\(argument)'"))
        } else {
          let names = (SceneName.allCases.map(\.rawValue) + ["plot"]).joined(separator: ", ")
          return .failure(
            UsageError(description: "unknown scene '\(argument)' (the scenes: \(names))"))
        }
      }
    }
    if !commands.isEmpty { options.commands = commands }
    return .success(options)
  }

  private static func parseSpeed(_ text: String) -> Result<Double, UsageError> {
    guard let speed = Double(text), speed.isFinite, speed > 0 else {
      return .failure(
        UsageError(description: "--speed needs a positive number, such as 2 or 0.5, not '\(text)'"))
    }
    return .success(speed)
  }
}
