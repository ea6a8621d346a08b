import Affix
import AffixDancing
import AffixDraggable
import AffixScheduling
import Foundation

/// The draggable scene's host: a card with a centre point.
///
/// Its centre sits behind a lock because the world writes it on the stage's queue while the
/// script reads it from its own thread.
final class DraggedCard: Draggable, Dancing, Sendable {
  private let centre: LockedState<CGPoint>
  let danceFrames: FrameSource

  init(center: CGPoint, clock: FrameSource) {
    centre = LockedState(center)
    danceFrames = clock
  }

  var center: CGPoint {
    get { centre.withLock { $0 } }
    set { centre.withLock { $0 = newValue } }
  }
}

/// Draws the card, its snap point and the finger in a small field of the terminal.
final class CardField: Sendable {
  static let columns = 60
  static let rows = 12
  /// Points per column and per row: the field spans 0...120 by 0...60 points.
  static let scale = (x: 2.0, y: 5.0)

  private struct State {
    var finger: CGPoint?
    var farthest = DraggableScene.home
    var marks = [DraggableScene.home]
  }

  private let card: DraggedCard
  private let world: DynamicsWorld
  private let screen: Screen
  private let state = LockedState(State())

  init(card: DraggedCard, world: DynamicsWorld, screen: Screen) {
    self.card = card
    self.world = world
    self.screen = screen
  }

  var finger: CGPoint? {
    get { state.withLock { $0.finger } }
    set { state.withLock { $0.finger = newValue } }
  }

  /// The snap points drawn.
  var marks: [CGPoint] {
    get { state.withLock { $0.marks } }
    set { state.withLock { $0.marks = newValue } }
  }

  /// The position farthest from the snap point seen so far.
  var farthest: CGPoint { state.withLock { $0.farthest } }

  /// Called at every frame.
  func draw() {
    let position = card.center
    let (finger, marks) = state.withLock { state in
      if distance(position) > distance(state.farthest) { state.farthest = position }
      return (state.finger, state.marks)
    }
    guard screen.mode == .ansi else { return }
    var grid = Array(
      repeating: Array(repeating: " ", count: Self.columns), count: Self.rows)
    func put(_ point: CGPoint, _ glyph: String) {
      let column = Int((Double(point.x) / Self.scale.x).rounded())
      let row = Int((Double(point.y) / Self.scale.y).rounded())
      guard (0..<Self.columns).contains(column), (0..<Self.rows).contains(row) else { return }
      grid[row][column] = glyph
    }
    for mark in marks { put(mark, screen.paint("+", .dim)) }
    put(position, screen.paint("▣", .bold, .blue))
    if let finger { put(finger, screen.paint("◦", .yellow)) }
    let border = "   +" + String(repeating: "-", count: Self.columns) + "+"
    let lines =
      [border] + grid.map { "   |" + $0.joined() + "|" } + [
        border,
        screen.paint(
          "   card at \(describe(position)), "
            + (finger.map { "finger at \(describe($0))" } ?? "let go")
            + (world.needsFrames ? ", moving" : ", at rest"), .dim),
      ]
    screen.live(lines)
  }

  private func distance(_ point: CGPoint) -> Double {
    let dx = Double(point.x - DraggableScene.home.x)
    let dy = Double(point.y - DraggableScene.home.y)
    return (dx * dx + dy * dy).squareRoot()
  }
}
