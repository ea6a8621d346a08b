/// Writes the pictures.
enum PlotCommand {
  static func run(directory: String, screen: Screen) -> Bool {
    screen.title("plot")
    return true
  }
}
