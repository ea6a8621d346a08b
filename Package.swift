// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Affix",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
  products: [
    .library(name: "Affix", targets: ["Affix"]),
    .library(name: "AffixScheduling", targets: ["AffixScheduling"]),
    .library(name: "AffixMotion", targets: ["AffixMotion"]),
    .library(name: "AffixLoading", targets: ["AffixLoading"]),
    .library(name: "AffixDancing", targets: ["AffixDancing"]),
    .library(name: "AffixDraggable", targets: ["AffixDraggable"]),
    .library(name: "AffixTooltip", targets: ["AffixTooltip"]),
    .library(name: "AffixLayout", targets: ["AffixLayout"]),
    .library(name: "AffixTesting", targets: ["AffixTesting"]),
    .library(name: "AffixLoadingTesting", targets: ["AffixLoadingTesting"]),
    .executable(name: "affix-demo", targets: ["AffixDemo"]),
    .executable(name: "affix-bench", targets: ["AffixBench"]),
    .executable(name: "affix-badinput", targets: ["AffixBadInput"]),
    .plugin(name: "LeakCheck", targets: ["LeakCheck"]),
  ],
  // What the tests switch at run time (every host on the weak path, deallocation hooks, full
  // read fences), compiled in only with this trait: the library a package depends on reads no
  // environment variable and carries no type of the tests'. `.ci/run` enables it.
  traits: [
    .trait(
      name: "TestSeams",
      description: "Test switches: AFFIX_HOST_MODE, AFFIX_READ_FENCE, the deallocation-hook twin")
  ],
  targets: [
    .target(
      name: "AffixRuntimeShims",
      cSettings: [.define("AFFIX_TEST_SEAMS", .when(traits: ["TestSeams"]))]),
    .target(name: "AffixBenchSupport"),
    // The benchmark targets' data file, read by the bench and the demo's plot: never shipped.
    .target(name: "AffixBenchTargets", swiftSettings: strict),
    .target(name: "Affix", dependencies: ["AffixRuntimeShims"], swiftSettings: strict),
    .target(name: "AffixScheduling", dependencies: ["Affix"], swiftSettings: strict),
    .target(name: "AffixMotion", dependencies: ["Affix"], swiftSettings: strict),
    .target(
      name: "AffixLoading", dependencies: ["Affix", "AffixScheduling"], swiftSettings: strict),
    .target(
      name: "AffixDancing", dependencies: ["Affix", "AffixScheduling", "AffixMotion"],
      swiftSettings: strict),
    .target(
      name: "AffixDraggable", dependencies: ["Affix", "AffixScheduling", "AffixMotion"],
      swiftSettings: strict),
    .target(
      name: "AffixTooltip", dependencies: ["Affix", "AffixScheduling"], swiftSettings: strict),
    .target(name: "AffixLayout", dependencies: ["Affix"], swiftSettings: strict),
    .target(name: "AffixTesting", dependencies: ["Affix"], swiftSettings: strict),
    // Test doubles for code that uses AffixLoading: a product of its own, so that an app's
    // shipping targets never see them.
    .target(
      name: "AffixLoadingTesting", dependencies: ["AffixLoading"], swiftSettings: strict),
    .executableTarget(
      name: "AffixDemo",
      dependencies: [
        "Affix", "AffixScheduling", "AffixMotion", "AffixLoading", "AffixDancing",
        "AffixDraggable", "AffixTooltip", "AffixLayout", "AffixTesting", "AffixLoadingTesting",
        "AffixBenchTargets",
      ],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "AffixBench",
      dependencies: [
        "Affix", "AffixScheduling", "AffixMotion", "AffixLoading", "AffixDancing",
        "AffixDraggable", "AffixBenchSupport", "AffixBenchTargets",
      ],
      swiftSettings: strict
    ),
    // The project's own bad-input suite: each case in a child process, run by
    // `.ci/bad-input.sh`.
    .executableTarget(
      name: "AffixBadInput",
      dependencies: [
        "Affix", "AffixScheduling", "AffixMotion", "AffixLoading", "AffixDancing",
        "AffixDraggable", "AffixTooltip", "AffixTesting", "AffixLoadingTesting",
      ],
      swiftSettings: strict
    ),
    .plugin(
      name: "LeakCheck",
      capability: .command(
        intent: .custom(
          verb: "leak-check",
          description: "Runs the leak-check suite and reports every leak it finds.")
      )
    ),
    // The helpers every test target shares (recordings, counters, a diagnostic log, polling):
    // not a product, never shipped.
    .target(
      name: "AffixTestSupport", dependencies: ["Affix", "AffixScheduling"],
      path: "Tests/AffixTestSupport",
      swiftSettings: strict),
    .testTarget(
      name: "AffixTests", dependencies: ["Affix", "AffixTestSupport"], swiftSettings: strict),
    // Names other frameworks declare, for NameClashTests: not a product, never shipped.
    .target(name: "FrameworkStandIns", path: "Tests/FrameworkStandIns", swiftSettings: strict),
    // The one test target without AffixTestSupport: it checks the names an app sees beside the
    // shipped modules, and the support target, never shipped, would only muddy that check.
    .testTarget(
      name: "NameClashTests",
      dependencies: [
        "FrameworkStandIns", "Affix", "AffixScheduling", "AffixMotion", "AffixLoading",
        "AffixDancing",
        "AffixDraggable", "AffixTooltip", "AffixLayout", "AffixTesting", "AffixLoadingTesting",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "AffixSchedulingTests", dependencies: ["AffixScheduling", "Affix", "AffixTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "AffixMotionTests", dependencies: ["AffixMotion", "Affix", "AffixTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "AffixLoadingTests",
      dependencies: [
        "AffixLoading", "AffixLoadingTesting", "AffixScheduling", "Affix", "AffixTestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "AffixDancingTests",
      dependencies: [
        "AffixDancing", "AffixScheduling", "AffixMotion", "Affix", "AffixTestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "AffixDraggableTests",
      dependencies: [
        "AffixDraggable", "AffixScheduling", "AffixMotion", "Affix", "AffixTestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "AffixTooltipTests",
      dependencies: ["AffixTooltip", "AffixScheduling", "Affix", "AffixTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "AffixLayoutTests", dependencies: ["AffixLayout", "Affix", "AffixTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "AffixTestingTests", dependencies: ["AffixTesting", "Affix", "AffixTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LeakCheckTests",
      dependencies: [
        "AffixTesting", "Affix", "AffixScheduling", "AffixLoading", "AffixLoadingTesting",
        "AffixDancing", "AffixDraggable", "AffixTooltip", "AffixLayout", "AffixTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "AffixDemoTests", dependencies: ["AffixDancing", "AffixTestSupport"],
      swiftSettings: strict),
    // Built as a new app target is (main actor by default, approachable concurrency), with
    // hosts, values and keys written unmarked: the library needs no annotation there.
    .testTarget(
      name: "AppDefaultsTests",
      dependencies: [
        "Affix", "AffixLoading", "AffixDancing", "AffixDraggable", "AffixTooltip", "AffixLayout",
        "AffixScheduling", "AffixTestSupport",
      ],
      swiftSettings: strict + [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]),
    // The sound uses of Tests/Fixtures/must-compile, run with real concurrency, so that the
    // thread sanitizer sees them: client code, with the shipped products and nothing else.
    .testTarget(
      name: "SoundUsesTests",
      dependencies: [
        "Affix", "AffixScheduling", "AffixLoading", "AffixLoadingTesting", "AffixDancing",
        "AffixDraggable", "AffixTooltip", "AffixTesting",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "AffixMainActorTests",
      dependencies: [
        "Affix", "AffixLoading", "AffixDancing", "AffixDraggable", "AffixTooltip",
        "AffixScheduling", "AffixTestSupport",
      ],
      swiftSettings: strict),
  ]
)
