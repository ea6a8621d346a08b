import Affix
import AffixDancing
import AffixScheduling
import Foundation

/// The dancing scene's host: a ball with a position and an opacity, and nothing else.
///
/// Its properties sit behind a lock because the animation writes them on the stage's queue
/// while the script reads them from its own thread.
final class Ball: Dancing, Sendable {
  private struct State {
    var position = CGPoint(x: 0, y: 0)
    var opacity = 1.0
  }

  private let state = LockedState(State())
  private let clock: FrameSource

  init(clock: FrameSource) {
    self.clock = clock
  }

  var danceFrames: FrameSource { clock }

  var position: CGPoint {
    get { state.withLock { $0.position } }
    set { state.withLock { $0.position = newValue } }
  }

  var opacity: Double {
    get { state.withLock { $0.opacity } }
    set { state.withLock { $0.opacity = newValue } }
  }
}

/// Draws the ball on its track in the live region, with the animator's progress and state.
final class BallTrack: Sendable {
  static let width = 50

  private let ball: Ball
  private let dance: Dance<Ball>
  private let screen: Screen
  private let lowest = LockedState(Double.infinity)
  private let highest = LockedState(-Double.infinity)

  init(ball: Ball, dance: Dance<Ball>, screen: Screen) {
    self.ball = ball
    self.dance = dance
    self.screen = screen
  }

  /// The values a step reports: position, opacity, progress and state.
  var reading: String {
    "x = \(decimal(ball.position.x)), opacity \(decimal(ball.opacity)), "
      + "progress \(String(format: "%.2f", dance.progress)), \(dance.state)"
      + (dance.isRunning ? ", running" : "") + (dance.isReversed ? ", reversed" : "")
  }

  /// The lowest x since ``startMeasuringOvershoot()``.
  var lowestX: Double { lowest.withLock { $0 } }

  /// The highest x since ``startMeasuringOvershoot()``.
  var highestX: Double { highest.withLock { $0 } }

  func startMeasuringOvershoot() {
    lowest.withLock { $0 = .infinity }
    highest.withLock { $0 = -.infinity }
  }

  /// Called at every frame.
  func draw() {
    let x = Double(ball.position.x)
    lowest.withLock { $0 = min($0, x) }
    highest.withLock { $0 = max($0, x) }
    guard screen.mode == .ansi else { return }
    let column = min(max(Int((x / 100 * Double(Self.width - 1)).rounded()), 0), Self.width - 1)
    let opacity = ball.opacity
    let glyph =
      opacity > 0.7
      ? screen.paint("●", .bold, .magenta)
      : opacity > 0.45 ? screen.paint("●", .magenta) : screen.paint("●", .dim, .magenta)
    let before = String(repeating: "·", count: column)
    let after = String(repeating: "·", count: Self.width - 1 - column)
    screen.live([
      "   |\(before)\(glyph)\(after)|",
      screen.paint("   \(reading)", .dim),
    ])
  }
}
