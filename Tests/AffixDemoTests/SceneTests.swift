import Testing

/// Each scene runs to its end in plain mode, fast, and prints a line for every step it shows.
///
/// On virtual time: every timer, frame and step of a scene comes at the same scene time in the
/// same order however loaded the machine is, so the output is the same on every run.
@Suite("The scenes")
struct SceneTests {
  /// The arguments that play scenes on virtual time.
  static let virtualTime = ["--virtual-time"]

  /// Lines, or parts of lines, that prove each step of a scene happened, in order.
  static let steps: [String: [String]] = [
    "leaks": [
      "The background sweeper, which releases dead hosts' values at moments of its own, waits",
      "Attached a name, a Badge and a Glow capability to 1000 short-lived sprites.",
      "alive: 1000 Sprite, 1000 Badge, 1000 Glow",
      "Dropped the sprites",
      "alive: 0 Sprite, 1000 Badge, 1000 Glow",
      "1000 dead hosts with 3000 values awaiting a sweep",
      "Swept the table: 1000 dead hosts",
      "alive: 0 Sprite, 0 Badge, 0 Glow",
      "alive: 0 Card, 0 Card's Badge",
      "No leaks: all 5000 tracked objects were released.",
      "alive: 100 Widget, 100 DragController",
      "Dropped the widgets, and swept 100 dead hosts",
      "alive: 0 Widget, 0 DragController",
      "frame source: 0 subscribers, running: false; bodies in the world: 0",
      "The leak checker agrees: No leaks: all 400 tracked objects were released.",
      "retain cycle: Document.inspector -> Inspector.document -> Document",
      "Fixed with a weak back-reference",
      "LEAK: Sprite \"sprite with a strong note\"",
      "Fixed by holding the host weakly in the value: No leaks",
      "Both deliberate leaks broken; the table after a sweep: 0 live hosts with 0 values",
    ],
    "loading": [
      "conforms to Loading: grace time",
      "A fast task",
      "ended before the grace time: nothing was shown (appeared 0 times)",
      "A slow task",
      "ended with success",
      "the minimum show time, no flicker",
      "A download that reports its progress",
      "Downloading artifacts: 50%",
      "Downloading artifacts: 100%",
      "determinate: loading.update(progress:) each 0.2 s, ended with success",
      "A failing task",
      "ended with failure: the mirror did not answer",
      "affix[loading]: stop was called more often than start",
      "state: idle",
    ],
    "dancing": [
      "animate(duration: 2, curve: .easeInOut)",
      "pause(): x = ",
      "setProgress(to: 0.25): x = 25.0, opacity 0.8, progress 0.25, active",
      "setProgress(to: 0.9): x = 90.0",
      "setProgress(to: 0.5): x = 50.0",
      "reverse().start()",
      "running reversed: x = ",
      "stop(): frozen where it is",
      "stopped",
      "completion: the animation ended at the end",
      "finish(at: .end): x = 100.0, opacity 0.3",
      "affix[dance]: Ball with dance.tag = 1: finish(at:) ignored",
      "animate(duration: 1.5, dampingRatio: 0.3)",
      "the spring's curve overshoots to x = -",
      "settled at x = 20.0 (state inactive)",
      "animate(spring: .bouncy) { x → 20 } while moving right, at x = ",
      "it kept its velocity: carried on to x = ",
      "projected to rest at x = 79.9",
      "the decay came to rest at x = 79.9 (state inactive)",
    ],
    "layout": [
      "Three cards pinned with no stage",
      "header at (0, 0) 0x0, a at (0, 0) 0x0, b at (0, 0) 0x0, c at (0, 0) 0x0",
      "The stage appears, 60 x 20",
      "header at (0, 0) 0x0, a at (2, 0) 12x6, b at (16, 0) 12x6, c at (30, 0) 12x6",
      "the cards attach to it",
      "header at (2, 1) 56x4, a at (2, 6) 12x6, b at (16, 6) 12x6, c at (30, 6) 12x6",
      "The observed width becomes 16",
      "header at (2, 1) 56x4, a at (2, 6) 16x6, b at (20, 6) 16x6, c at (38, 6) 16x6",
    ],
    "draggable": [
      "makeDraggable(snap: .snap(damping: 0.35)): the card rests at its snap point (60.0, 30.0)",
      "drag(.began(at: (64.0, 32.0)))",
      "the card's centre at (96.0, 42.0): it keeps the touch offset",
      "drag(.ended(velocity:",
      "springs back and rests at (60.0, 30.0)",
      "the world has stopped its frames: no subscription",
      "the finger 40 pt past the edge, the card only 17.3 pt past it",
      "springs back inside and rests at (100.0, 30.0)",
      "projected to x = 5.2, so the fling carries it past the middle detent to (20.0, 30.0)",
      "onRest: the card rests at (20.0, 30.0)",
      "onRelease { _ in .handOff }",
      "the dance ends at (100.0, 30.0)",
      "the same momentum whichever mixin moves it",
      "affix[drag]: changed(to:",
      "affix[drag]: began(at:",
    ],
  ]

  @Test(arguments: steps.keys.sorted())
  func aSceneRunsToItsEndAndShowsEachStep(scene: String) throws {
    let run = try DemoRun.run([scene] + Self.virtualTime)
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
    #expect(run.errorOutput.isEmpty, "\(run.summary)")
    #expect(run.linesWiderThanATerminal.isEmpty, "\(run.linesWiderThanATerminal)")
    // A line wider than the terminal is wrapped at a space: compare with spaces collapsed.
    let output = Self.collapsingSpaces(run.output)
    var rest = output[...]
    for step in Self.steps[scene, default: []].map(Self.collapsingSpaces) {
      guard let found = rest.range(of: step) else {
        Issue.record("missing, or out of order: \(step)\n\(run.summary)")
        return
      }
      rest = rest[found.upperBound...]
    }
  }
}

extension SceneTests {
  @Test func withNoSceneNamedEverySceneRunsInTurn() throws {
    let run = try DemoRun.run(Self.virtualTime)
    #expect(run.status == 0, "\(run.summary)")
    #expect(!run.hasControlCodes, "\(run.summary)")
    #expect(run.linesWiderThanATerminal.isEmpty, "\(run.linesWiderThanATerminal)")
    let titles = [
      "== loading", "== dancing", "== draggable", "== tooltip", "== layout", "== leaks",
    ]
    let positions = titles.map { run.output.range(of: $0)?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil }, "\(run.summary)")
    #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(run.summary)")
  }
}

extension SceneTests {
  /// Virtual time leaves nothing to the machine's load: two runs print the same, line for line.
  @Test func onVirtualTimeEveryRunPrintsTheSame() throws {
    let first = try DemoRun.run(["loading", "dancing", "draggable", "tooltip"] + Self.virtualTime)
    let second = try DemoRun.run(["loading", "dancing", "draggable", "tooltip"] + Self.virtualTime)
    #expect(first.status == 0 && second.status == 0, "\(first.summary)")
    #expect(first.output == second.output)
  }

  /// `text` with every run of spaces and line breaks made one space.
  static func collapsingSpaces(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
  }

  /// On a terminal too, with the live regions each scene redraws in place.
  @Test func onATerminalEveryLineOfEverySceneFitsEightyColumns() throws {
    let run = try DemoRun.run(
      Self.virtualTime, environment: ["AFFIX_DEMO_ASSUME_TERMINAL": "1"])
    #expect(run.status == 0, "\(run.summary)")
    #expect(run.linesWiderThanATerminal.isEmpty, "\(run.linesWiderThanATerminal)")
  }
}
