import AffixScheduling
package import Foundation

/// A recorded drag and snap: where the object's centre was at every frame, for plots.
///
/// ``record(from:path:releaseVelocity:damping:framesPerSecond:)`` runs the real mixin on
/// virtual time: a finger grabs the object, moves along a path one point a frame, lets go
/// with a fling, and the object snaps back until it rests.
///
/// ```swift
/// for sample in DragTrajectory.record().samples {
///   print(sample.time, sample.position.x, sample.position.y, sample.phase)
/// }
/// ```
package struct DragTrajectory: Sendable {
  /// What the object was doing at a sample.
  package enum Phase: String, Sendable, Hashable {
    /// Held by the finger.
    case dragging
    /// Let go, springing to the snap point.
    case snapping
  }

  /// One frame of the trajectory.
  package struct Sample: Sendable, Hashable {
    /// Seconds since the finger went down.
    package var time: Double
    /// The object's centre.
    package var position: CGPoint
    /// The finger, while it holds the object.
    package var finger: CGPoint?
    /// What the object was doing.
    package var phase: Phase
  }

  /// Every frame, from the first movement to rest.
  package var samples: [Sample]
  /// Where the object snaps back to (and started).
  package var snapPoint: CGPoint

  /// Records a drag along `path` that ends with a fling, and the snap that follows.
  ///
  /// - Parameters:
  ///   - start: The object's centre and snap point.
  ///   - path: The finger, one point a frame; the first point is where it grabs the object.
  ///     The default grabs the object off-centre and pulls it down and right along an arc.
  ///   - releaseVelocity: The fling, in points per second.
  ///   - damping: The snap damping, 0...1.
  ///   - framesPerSecond: The frame rate of the recording.
  ///   - isolation: Where the recording's object lives and is dragged: the caller's.
  /// - Returns: The trajectory, at most ten seconds of snapping after the release.
  package static func record(
    from start: CGPoint = CGPoint(x: 0, y: 0), path: [CGPoint]? = nil,
    releaseVelocity: CGPoint = CGPoint(x: 900, y: -600), damping: Double = 0.5,
    framesPerSecond: Int = 60, isolation: isolated (any Actor)? = #isolation
  ) -> DragTrajectory {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: framesPerSecond)
    let world = DynamicsWorld(frames: clock)
    let object = TracedObject(position: start)
    object.makeDraggable(snap: .snap(damping: damping), world: world)
    let path = path ?? defaultPath(from: start)
    let frame = clock.interval / .seconds(1)
    var samples: [Sample] = []
    var time = 0.0
    func sample(_ finger: CGPoint?, _ phase: Phase) {
      time += frame
      samples.append(Sample(time: time, position: object.center, finger: finger, phase: phase))
    }

    guard let grab = path.first else {
      return DragTrajectory(samples: [], snapPoint: start)
    }
    object.drag(.began(at: grab))
    for finger in path.dropFirst() {
      object.drag(.changed(to: finger))
      scheduler.advance(by: clock.interval)
      sample(finger, .dragging)
    }
    object.drag(.ended(velocity: releaseVelocity))
    let limit = 10 * max(framesPerSecond, 1)
    for _ in 0..<limit where world.needsFrames {
      scheduler.advance(by: clock.interval)
      sample(nil, .snapping)
    }
    object.removeDraggable()
    return DragTrajectory(samples: samples, snapPoint: start)
  }

  /// A quarter-circle pull of 200 points over half a second, grabbed 20 points off-centre.
  private static func defaultPath(from start: CGPoint) -> [CGPoint] {
    let frames = 30
    return (0...frames).map { frame in
      let angle = Double(frame) / Double(frames) * Double.pi / 2
      return CGPoint(
        Double(start.x) + 20 + 200 * sin(angle), Double(start.y) + 10 + 200 * (1 - cos(angle)))
    }
  }
}

/// The object a recording drags.
private final class TracedObject: Draggable {
  var center: CGPoint
  init(position: CGPoint) { self.center = position }
}
