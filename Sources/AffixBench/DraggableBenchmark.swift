import AffixDraggable
import AffixMotion
import AffixScheduling
import Dispatch
import Foundation

/// `affix-bench draggable`: the cost of a physics step per moving body, and the frame-source
/// wake-ups of a world at rest.
@MainActor enum DraggableBenchmark {
  static let bodyCount = 1_000
  static let steps = 600

  static func run() {
    let bare = measureBareLoop()
    let world = measureWorld(.none)
    let hosts = measureWorld(.handler)
    let attached = measureWorld(.dragController)
    let stretched = measureStretched()
    print("draggable.bodies: \(bodyCount) bodies")
    report("draggable.ns_per_body_step", world, "ns")
    report("draggable.ns_per_body_step_with_hosts", hosts, "ns")
    report("draggable.ns_per_body_step_drag_controller", attached, "ns")
    report("draggable.ns_per_body_step_stretched", stretched, "ns")
    report("draggable.baseline_ns_per_body_step", bare, "ns")
    reportRatio("draggable.step_vs_baseline", world / bare)
    let (waiting, deferred) = waitingMovesPeak()
    report("draggable.ns_per_body_step_waiting", deferred, "ns")
    report("draggable.waiting_moves_peak", Double(waiting), "moves")
    report("draggable.waiting_moves_bound", Double(bodyCount), "moves")
    let (moving, idle) = measureWakeUps()
    report("draggable.moving_wakeups_per_s", moving, "/s")
    report("draggable.idle_wakeups_per_s", idle, "/s")
  }

  /// Frame-source wake-ups per second on a real Dispatch clock: while bodies snap (the
  /// baseline, about the frame rate), then with every body at rest.
  static func measureWakeUps() -> (moving: Double, idle: Double) {
    let scheduler = DispatchClock(queue: DispatchQueue(label: "affix-bench.draggable"))
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let world = DynamicsWorld(frames: clock)
    let bodies = (0..<bodyCount).map { index in
      let body = world.makeBody(at: CGPoint(x: Double(index), y: 0))
      body.snap(
        Snap(to: CGPoint(x: Double(index), y: 300), spring: .snap(damping: 1, frequency: 1)))
      return body
    }
    let window = Duration.milliseconds(500)
    let movingStart = clock.wakeUps
    Thread.sleep(forTimeInterval: window / .seconds(1))
    let moving = Double(clock.wakeUps - movingStart) / (window / .seconds(1))
    let deadline = ContinuousClock.now + .seconds(10)
    while world.needsFrames && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.01)
    }
    // Let the frame that found everything at rest finish.
    Thread.sleep(forTimeInterval: 0.05)
    let idleWindow = Duration.seconds(1)
    let idleStart = clock.wakeUps
    Thread.sleep(forTimeInterval: idleWindow / .seconds(1))
    let idle = Double(clock.wakeUps - idleStart) / (idleWindow / .seconds(1))
    withExtendedLifetime(bodies) {}
    return (moving, idle)
  }

  /// The most moves that waited at once for main-actor hosts while the main actor was held
  /// and the world advanced `steps` steps on another thread (at most one a body, the newest),
  /// and the nanoseconds per body step of those steps, each move joining the backlog.
  static func waitingMovesPeak() -> (peak: Int, nanosecondsPerBodyStep: Double) {
    let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
    let hosts = (0..<bodyCount).map { _ in Host() }
    let bodies = hosts.enumerated().map { index, host in
      let body = world.makeBody(at: CGPoint(x: Double(index), y: 0)) { position in
        host.position = position
        return true
      }
      body.snap(Snap(to: CGPoint(x: 200, y: 200), spring: .snap(damping: 0)))
      return body
    }
    // This thread holds the main actor: every move waits for it.
    let elapsed = DispatchQueue.global().sync {
      ContinuousClock().measure {
        for _ in 0..<steps { world.advance(by: world.timeStep) }
      }
    }
    // Read while the bodies live: a body that leaves takes its waiting move with it.
    let peak = withExtendedLifetime(bodies) { world.movesBacklog.peak }
    return (peak, elapsed / .nanoseconds(1) / Double(steps * bodyCount))
  }

  /// What a moving body writes to after each step.
  enum Hosts {
    /// Nothing: the world alone.
    case none
    /// A host's position, through a move handler.
    case handler
    /// A host's position, through `DragController.attach(to:position:)` and its key path.
    case dragController
  }

  /// Nanoseconds per moving body per step for `DynamicsWorld`, best of three runs.
  static func measureWorld(_ writing: Hosts) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      // A zero rest threshold keeps every body moving for the whole run.
      let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
      let hosts = (0..<bodyCount).map { _ in Host() }
      let bodies = (0..<bodyCount).map { index in
        let start = CGPoint(x: Double(index % 40) * 10, y: Double(index / 40) * 10)
        let host = hosts[index]
        host.position = start
        let body: DynamicBody
        switch writing {
        case .none:
          body = world.makeBody(at: start)
        case .handler:
          body = world.makeBody(at: start) { position in
            host.position = position
            return true
          }
        case .dragController:
          body = DragController.attach(to: host, center: \.position, world: world).body
        }
        body.velocity = CGPoint(x: Double(index % 7) * 100, y: -300)
        body.snap(Snap(to: CGPoint(x: 200, y: 200), spring: .snap(damping: 0)))
        return body
      }
      best = min(best, nanosecondsPerBodyStep(in: world))
      // A host that died would end its body's moves.
      withExtendedLifetime((bodies, hosts)) {}
    }
    return best
  }

  /// Nanoseconds per moving body per step while `world` advances `steps` steps, every one of
  /// its `bodyCount` bodies moving throughout.
  static func nanosecondsPerBodyStep(in world: DynamicsWorld) -> Double {
    let elapsed = ContinuousClock().measure {
      for _ in 0..<steps { world.advance(by: world.timeStep) }
    }
    precondition(world.movingBodyCount == bodyCount, "every body must move for the whole run")
    return elapsed / .nanoseconds(1) / Double(steps * bodyCount)
  }

  /// Nanoseconds per moving body per step for bodies held past their bounds on a rubber band
  /// by a springy attachment: the band's arithmetic on every step. Best of three runs.
  static func measureStretched() -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      let world = DynamicsWorld(frames: nil, restThreshold: RestThreshold(distance: 0, speed: 0))
      let bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
      let bodies = (0..<bodyCount).map { index in
        let body = world.makeBody(
          at: CGPoint(x: Double(index % 40) * 10, y: Double(index / 40) * 10), bounds: bounds)
        body.rubberBand = .standard
        body.attach(
          SpringAttachment(
            anchor: CGPoint(x: 700 + Double(index % 7) * 10, y: -300),
            spring: DampedSpring(frequency: 3, dampingRatio: 0.05)))
        return body
      }
      best = min(best, nanosecondsPerBodyStep(in: world))
      withExtendedLifetime(bodies) {}
    }
    return best
  }

  /// The same spring arithmetic on a plain array with no world, lock or behaviours: what a
  /// step cannot beat.
  static func measureBareLoop() -> Double {
    struct Particle {
      var x: Double
      var y: Double
      var vx: Double
      var vy: Double
    }
    var best = Double.infinity
    for _ in 0..<3 {
      var particles = (0..<bodyCount).map { index in
        Particle(x: Double(index % 40) * 10, y: Double(index / 40) * 10, vx: 0, vy: -300)
      }
      let (uu, uv, vu, vv) = (0.99, 0.008, -1.2, 0.98)
      let clock = ContinuousClock()
      let elapsed = clock.measure {
        for _ in 0..<steps {
          for index in particles.indices {
            let ux = particles[index].x - 200
            let uy = particles[index].y - 200
            let (vx, vy) = (particles[index].vx, particles[index].vy)
            particles[index].x = 200 + uu * ux + uv * vx
            particles[index].vx = vu * ux + vv * vx
            particles[index].y = 200 + uu * uy + uv * vy
            particles[index].vy = vu * uy + vv * vy
          }
        }
      }
      best = min(best, elapsed / .nanoseconds(1) / Double(steps * bodyCount))
      withExtendedLifetime(particles) {}
    }
    return best
  }

}

/// A stand-in for a view: an object with a position the world writes to.
private final class Host: @unchecked Sendable {  // Written only by the benchmark's one thread.
  var position = CGPoint.zero
}
