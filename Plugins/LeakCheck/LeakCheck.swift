import PackagePlugin

@main
struct LeakCheck: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    print("leak-check: not yet implemented")
  }
}
