import Affix
import Dispatch
import Foundation

let options: DemoOptions
switch DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed):
  options = parsed
case .failure(let error):
  Terminal.writeError(Screen.wrap("affix-demo: \(error)") + "\n\n\(DemoOptions.usage)\n")
  exit(2)
}

if options.showHelp {
  Terminal.write(DemoOptions.usage + "\n")
  exit(0)
}

let mode: OutputMode =
  options.plain ? .plain : .detect(environment: ProcessInfo.processInfo.environment)
let screen = Screen(mode: mode)
let stage = Stage(screen: screen, speed: options.speed, virtualTime: options.virtualTime)
let interruptSources = InterruptHandling.install(restoring: screen)

// Misuse reported by the forgiving APIs is part of the show: print it in the flow.
Diagnostics.setHandler { diagnostic in
  screen.step(screen.paint("  ! \(diagnostic)", .yellow))
}

screen.begin()
// The scripts block while their scenes play, so they run off the main thread, which stays
// free for Dispatch (and for anything a module schedules on the main queue).
DispatchQueue.global().async {
  var status: Int32 = 0
  for command in options.commands {
    switch command {
    case .scene(let scene):
      scene.play(on: stage)
    case .plot(let directory):
      // The plots drive hosts of their own on virtual clocks, on the main actor.
      let drawn = stage.perform { PlotCommand.run(directory: directory, screen: screen) }
      if !drawn { status = 1 }
    }
  }
  screen.clearLive()
  screen.restore()
  exit(status)
}
withExtendedLifetime(interruptSources) {
  dispatchMain()
}
