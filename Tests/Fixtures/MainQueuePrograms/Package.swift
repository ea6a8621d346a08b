// swift-tools-version: 6.1
import PackageDescription

// Programs whose main queue runs where users meet it on Linux: an `async` entry point and
// `dispatchMain()`, both of which hand the main queue to a Dispatch thread. Each replaces a
// value on the main queue and exits 0 only if the value was released there; `observer-cancel`
// cancels an observation on the main queue while its call waits for that queue; `never-drained`
// drops a main-actor value off a main queue that never runs, and finds it kept. Built and run by
// .ci/main-queue-programs.sh; Swift Testing, the third such setting, is covered by
// ReclamationPromiseTests.
let package = Package(
  name: "MainQueuePrograms",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Affix", path: "../../..")],
  targets: [
    .target(
      name: "MainQueueCheck", dependencies: [.product(name: "Affix", package: "Affix")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "async-main", dependencies: ["MainQueueCheck"],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "dispatch-main", dependencies: ["MainQueueCheck"],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    // A main queue never drained: a main-actor value dropped elsewhere waits for it.
    .executableTarget(
      name: "never-drained", dependencies: [.product(name: "Affix", package: "Affix")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    // The deadlock of an observer's cancel on the main queue with the observer's own call.
    .executableTarget(
      name: "observer-cancel", dependencies: [.product(name: "Affix", package: "Affix")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
  ]
)
