import Affix
import AffixTesting
import Testing

/// Attaches values and capabilities to short-lived hosts, drops the hosts, and shows that
/// everything attached goes with them; then lets the leak checker find a deliberate cycle.
enum LeaksScene {
  static let hostCount = 1_000

  static func play(on stage: Stage) {
    stage.screen.title("leaks: what is attached goes with its host")
    // Left alone, the background sweeper releases a dead host's values at moments of its own; held, the values wait for the sweeps the scene makes,
    // which it can then show, at any speed and however loaded the machine.
    stage.screen.detail(
      "(The background sweeper, which releases dead hosts' values at moments of its own, "
        + "waits for this scene.)")
    AssociationTable.withBackgroundSweepsHeld { playHeld(on: stage) }
  }

  private static func playHeld(on stage: Stage) {
    let screen = stage.screen
    // Start from a clean table, whatever the scenes before left to sweep.
    AssociationTable.sweep()

    let census = Census()
    let kinds = ["Sprite", "Badge", "Glow"]
    let (_, report) = checkForLeaks { tracker in
      var sprites: [Sprite] = []
      for index in 0..<hostCount {
        let sprite = Sprite()
        let badge = Badge(index)
        let associations = Associations(of: sprite)
        associations[Sprite.Name.self] = "sprite \(index)"
        associations[Sprite.BadgeKey.self] = badge
        let glow = associations.attach(Glow())
        for (object, kind) in [(sprite, "Sprite"), (badge, "Badge"), (glow, "Glow")]
          as [(AnyObject, String)]
        {
          census.track(object, as: kind)
          tracker.track(object, kind)
        }
        sprites.append(sprite)
      }
      screen.step(
        "Attached a name, a Badge and a Glow capability to \(hostCount) short-lived sprites.")
      screen.detail(census.summary(kinds))
      screen.detail("table: \(AssociationTable.statistics)")
      stage.pause(.milliseconds(300))

      sprites.removeAll()
      screen.step("Dropped the sprites: the table never kept one alive.")
      screen.detail(census.summary(kinds))
      screen.detail("table: \(AssociationTable.statistics)")
      stage.pause(.milliseconds(300))

      let swept = AssociationTable.sweep()
      screen.step("Swept the table: \(swept) dead hosts, their values released.")
      screen.detail(census.summary(kinds))
      screen.detail("table: \(AssociationTable.statistics)")
      stage.pause(.milliseconds(300))

      var cards: [Card] = []
      for index in 0..<hostCount {
        let card = Card()
        let badge = Badge(index)
        Associations(of: card)[Card.BadgeKey.self] = badge
        census.track(card, as: "Card")
        census.track(badge, as: "Card's Badge")
        tracker.track(card, "Card")
        tracker.track(badge, "Card's Badge")
        cards.append(card)
      }
      cards.removeAll()
      screen.step(
        "\(hostCount) cards that own their storage (AssociationOwner) released theirs at deinit:")
      screen.detail(census.summary(["Card", "Card's Badge"]) + ", no sweep needed")
    }
    stage.pause(.milliseconds(300))
    screen.step("The leak checker agrees: " + paint(report, on: screen))
    stage.pause(.milliseconds(300))

    playMixins(on: stage)
    showDeliberateCycle(on: stage)
    showValueHoldingItsHost(on: stage)
  }

  private static func showDeliberateCycle(on stage: Stage) {
    let screen = stage.screen
    screen.step("A deliberate cycle: a document and its inspector hold each other strongly.")
    let (escaped, report) = checkForLeaks { tracker -> WeakReference<Document> in
      let document = Document()
      let inspector = Inspector(document: document)
      document.inspector = inspector
      tracker.track(inspector, "inspector")
      tracker.track(document, "document")
      return WeakReference(document)
    }
    for line in report.description.split(separator: "\n") {
      screen.detail(paint(String(line), .red, on: screen))
    }
    // Break the cycle now that it has been shown, so the demo itself leaks nothing.
    escaped.object?.inspector = nil
    stage.pause(.milliseconds(500))

    let (_, fixed) = checkForLeaks { tracker in
      let document = Document()
      let inspector = WeakInspector(document: document)
      document.weakInspector = inspector
      tracker.track(inspector, "inspector")
      tracker.track(document, "document")
    }
    screen.step("Fixed with a weak back-reference (WeakReference): " + paint(fixed, on: screen))
    stage.pause(.milliseconds(300))
  }

  private static func showValueHoldingItsHost(on stage: Stage) {
    let screen = stage.screen
    screen.step(
      "A value that holds its host strongly keeps the host alive (ARC has no ephemerons):")
    let (escaped, report) = checkForLeaks { tracker -> WeakReference<Sprite> in
      let sprite = Sprite()
      Associations(of: sprite)[Sprite.NoteKey.self] = Note(about: sprite)
      tracker.track(sprite, "sprite with a strong note")
      return WeakReference(sprite)
    }
    for line in report.description.split(separator: "\n") {
      screen.detail(paint(String(line), .red, on: screen))
    }
    if let sprite = escaped.object {
      Associations(of: sprite).removeValue(for: Sprite.NoteKey.self)
    }
    stage.pause(.milliseconds(500))

    let (_, fixed) = checkForLeaks { tracker in
      let sprite = Sprite()
      Associations(of: sprite)[Sprite.WeakNoteKey.self] = WeakNote(about: sprite)
      tracker.track(sprite, "sprite with a weak note")
    }
    screen.step("Fixed by holding the host weakly in the value: " + paint(fixed, on: screen))
    AssociationTable.sweep()
    screen.detail(
      "Both deliberate leaks broken; the table after a sweep: \(AssociationTable.statistics)")
    stage.pause(.milliseconds(300))
  }

  static func paint(_ report: LeakReport, on screen: Screen) -> String {
    paint(report.description, report.isClean ? .green : .red, on: screen)
  }

  private static func paint(_ text: String, _ style: Screen.Style, on screen: Screen) -> String {
    screen.paint(text, style)
  }
}
