import Affix
public import AffixMotion
public import AffixScheduling
public import Foundation

/// A host's animation handle: Dance's chainable API over a property animator.
///
/// A host has one ``Dancer`` in its associated storage; every `Dance` value for that host is a
/// typed view on it, so `host.dance` can be written as often as you like. Every call returns
/// the handle, so calls chain:
///
/// ```swift
/// circle.dance.animate(duration: 2, curve: .easeInOut) {
///   $0.transform = AffineTransform2D(scaleX: 1.5, y: 1.5)
///   $0.center = CGPoint(x: 160, y: 240)
///   $0.backgroundColor = .blue
/// }.addCompletion { _ in
///   print("done")
/// }.start(after: 5)
///
/// circle.dance.pause()
/// circle.dance.setProgress(to: 0.25)
/// circle.dance.reverse().start()
/// ```
///
/// A host animates several groups at once: each `animate` (or `decay`) declares one, which
/// animates the properties it writes, with the animations chained after it by `then`, and ends
/// on its own. The handle `animate` returns addresses its group; `host.dance` addresses the
/// latest group that has not ended, and ``groups`` lists them all. A later declaration takes the
/// properties it writes from earlier groups, which run on with the rest (see
/// <doc:DancingGuide#Independent-groups>):
///
/// ```swift
/// let move = card.dance.animate(spring: .smooth) { $0.position = target }.start()
/// card.dance.animate(duration: 0.3) { $0.alpha = 0 }.start()  // the move runs on
/// move.pause()  // the move alone
/// ```
///
/// Errors never crash: a call that makes no sense now (starting with no animation, finishing
/// an inactive one, a progress outside `0...1`, a negative delay, a dead host) is reported
/// through `Diagnostics` (subsystem `"dance"`, naming the host type, its ``tag`` and the
/// caller's line) and leaves the animation as it was.
///
/// ## Isolation
/// The host's frames, and every call that reads or writes the host (`start()`,
/// `pause()`, `setProgress(to:)`,
/// `finish(at:)`, `addAnimations(delayFactor:_:)`, ...),
/// run in the isolation the host's animations were declared in: the main actor for a
/// main-actor view. A handle is `Sendable` only where its host is, so a non-`Sendable` host's
/// handle stays where the host is; a main-actor view's handle may travel, and a call made
/// with it elsewhere (a detached task, another actor) is reported with the caller's line and
/// ignored. A host with no animation takes the isolation of the next `animate`.
public struct Dance<Host: AnyObject> {
  /// The capability this handle drives.
  package let dancer: Dancer
  /// The group of animations the handle addresses: `host.dance` addresses the latest, the
  /// handle an `animate` returns its own.
  let group: GroupSelector

  init(dancer: Dancer, group: GroupSelector = .latest) {
    self.dancer = dancer
    self.group = group
  }

  /// The handle of any object, conforming to ``Dancing`` or not.
  ///
  /// ```swift
  /// Dance.of(label).animate(duration: 0.3) { $0.alpha = 0 }.start()
  /// ```
  ///
  /// - Parameters:
  ///   - host: The object to animate; the handle holds it weakly.
  ///   - frames: The frame source to tick on; `nil` keeps the one the host already dances on
  ///     (`FrameSource.shared` for a new handle). Used when the handle is made, or when it has
  ///     no animation; asking for another source while an animation exists is reported and
  ///     ignored.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  public static func of(
    _ host: Host, frames: FrameSource? = nil, fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let dancer = Associations(of: host).capability(Dancer.self) {
      Dancer(host: host, clock: frames ?? .shared)
    }
    if let frames { dancer.useClock(frames, at: CallSite(fileID: fileID, line: line)) }
    return Dance(dancer: dancer)
  }

  // MARK: Creating animations

  /// Creates an animation with one of UIKit's standard curves; it waits for `start()`.
  ///
  /// The block runs at once, on a proxy of the host: each property written animates to the
  /// value written, from its value when the animation starts (as UIKit reads an animator's
  /// values when it becomes active), so a property moved between `animate` and `start()`
  /// does not jump back.
  ///
  /// It declares a new group and returns a handle to it. The group takes the properties it
  /// writes from the host's earlier groups, which run on with the rest; one left with nothing
  /// to animate ends where it stands (its completions get ``AnimatingPosition/current``).
  @discardableResult
  public func animate(
    duration: Double, curve: TimingCurve = .easeInOut,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    animate(
      duration: duration, timingParameters: .curve(curve), isolation: isolation, fileID: fileID,
      line: line, animations)
  }

  /// Creates an animation with any timing parameters: a curve or a spring.
  ///
  /// Every `animate` takes the isolation the host lives in, the caller's unless given: the
  /// animation writes the host's properties there, at once when the frame source ticks there
  /// (the main queue, for a main-actor host on `FrameSource.shared`), else enqueued there,
  /// never on the clock's thread.
  @discardableResult
  public func animate(
    duration: Double, timingParameters: TimingParameters,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    // A host animating in one isolation does not move to another while it animates: its
    // frames would then write it there, racing its own code.
    let site = CallSite(fileID: fileID, line: line)
    guard let isolation, dancer.admits(isolation, "animate", group: group, at: site) else {
      if isolation == nil { dancer.refuse("animate", group: group, at: site) }
      return self
    }
    let declared = dancer.animate(
      duration: duration, timing: timingParameters, isolation: isolation,
      at: CallSite(fileID: fileID, line: line)
    ) { object in
      guard let host = object as? Host else { return [] }
      return TrackRecorder.record(host, at: CallSite(fileID: fileID, line: line), animations)
    }
    return declared.map { Dance(dancer: dancer, group: .id($0)) } ?? self
  }

  /// Creates a spring animation from a physical or SwiftUI-style spring; it lasts as long as
  /// the spring takes to settle.
  ///
  /// A property already moving when the animation starts keeps its velocity into the spring
  /// (see <doc:DancingGuide#Interrupting-a-motion>), unless the spring states an initial
  /// velocity of its own.
  ///
  /// ```swift
  /// card.dance.animate(spring: .bouncy) { $0.position = CGPoint(x: 200, y: 0) }.start()
  /// card.dance.animate(spring: DampedSpring(duration: 0.3, bounce: -0.2)) { $0.alpha = 0 }.start()
  /// ```
  @discardableResult
  public func animate(
    spring: DampedSpring = .smooth, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    animate(
      duration: 0, timingParameters: .spring(spring), isolation: isolation, fileID: fileID,
      line: line, animations)
  }

  /// Creates an animation on a custom Bezier curve; control points' x must lie in `0...1`
  /// (others are reported and clamped).
  @discardableResult
  public func animate(
    duration: Double, controlPoint1: CGPoint, controlPoint2: CGPoint,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    let (x1, y1, x2, y2) = (
      Double(controlPoint1.x), Double(controlPoint1.y), Double(controlPoint2.x),
      Double(controlPoint2.y)
    )
    if !CubicBezier.isValid(x1: x1, y1: y1, x2: x2, y2: y2) {
      dancer.report(
        "animate: control points (\(x1), \(y1)), (\(x2), \(y2)) need x in 0...1 and y within "
          + "±\(CubicBezier.maximumY);"
          + " clamped", group: group, at: CallSite(fileID: fileID, line: line))
    }
    return animate(
      duration: duration,
      timingParameters: .bezier(controlPoint1: controlPoint1, controlPoint2: controlPoint2),
      isolation: isolation, fileID: fileID, line: line, animations)
  }

  /// Creates a spring animation that settles within `duration`; a ratio below 1 bounces.
  @discardableResult
  public func animate(
    duration: Double, dampingRatio: Double, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    if !dampingRatio.isFinite || dampingRatio < DampedSpring.minimumDampingRatio {
      dancer.report(
        "animate: damping ratio \(dampingRatio) raised to at least \(DampedSpring.minimumDampingRatio)",
        group: group, at: CallSite(fileID: fileID, line: line))
    }
    return animate(
      duration: duration, timingParameters: .spring(dampingRatio: dampingRatio),
      isolation: isolation, fileID: fileID, line: line, animations)
  }

  /// Adds property animations to the current animation of the group, even while it runs.
  ///
  /// They begin `delayFactor` (in `0...1`) of the remaining time from now, from the
  /// properties' current values, and end with it. The group takes those properties from the
  /// host's other groups, as a new declaration does.
  ///
  /// - Parameters:
  ///   - delayFactor: The fraction of the remaining time, in `0...1`, before they begin.
  ///   - isolation: Where the host lives; the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  ///   - animations: Runs at once on a proxy of the host; each property written animates to
  ///     the value written.
  /// - Returns: This handle, for chaining.
  @discardableResult
  public func addAnimations(
    delayFactor: Double = 0, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ animations: (DanceProxy<Host>) -> Void
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    guard dancer.admits(isolation, "addAnimations", group: group, at: site) else { return self }
    guard let host = dancer.host.object as? Host else {
      dancer.report("addAnimations ignored: the host is gone", group: group, at: site)
      return self
    }
    let tracks = TrackRecorder.record(host, at: site, animations)
    let id = dancer.state.withLock { state in state.index(of: group).map { state.groups[$0].id } }
    if let id { _ = dancer.takeProperties(of: tracks, from: id, on: host, at: site) }
    dancer.perform("addAnimations", group: id.map { .id($0) } ?? group, at: site) {
      engine, now throws(AnimatorMisuse) in
      try engine.addTracks(tracks, delayFactor: delayFactor, at: now)
    }
    return self
  }

  /// Runs `completion` once, with the final position, when the animation ends.
  ///
  /// The animation ends by reaching its end or by `finish(at:)`; `completion` does not run
  /// when it is stopped without finishing or when the host dies. After
  /// `then(duration:curve:_:)`, it belongs to the chained animation.
  ///
  /// The completion runs in the isolation it was written in, so a main-actor view can touch
  /// itself: at once when the clock ticks on the main queue (`FrameSource.shared`), else later
  /// on the main actor. Written on another actor, it runs later on that actor.
  ///
  /// ```swift
  /// @MainActor final class CardView: @MainActor Dancing {
  ///   var alpha = 1.0
  ///   var isHidden = false
  ///
  ///   func fadeOut() {
  ///     dance.animate(duration: 0.3) { $0.alpha = 0 }
  ///       .addCompletion { _ in self.isHidden = true }  // on the main actor
  ///       .start()
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: Where `completion` runs; the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  ///   - completion: Told where the animation ended.
  /// - Returns: This handle, for chaining.
  @discardableResult
  public func addCompletion(
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ completion: @escaping (AnimatingPosition) -> Void
  ) -> Dance<Host> {
    let callback = IsolatedCallback(isolation: isolation, completion)
    let completion = AnimationCompletion(
      delivered: { await callback.delivered() }, { callback($0) })
    dancer.changeLatest(
      "addCompletion", group: group, at: CallSite(fileID: fileID, line: line)
    ) { engine throws(AnimatorMisuse) in
      engine.addCompletion(completion)
    } link: { link in
      link.settings.completions.append(completion)
    }
    return self
  }

  // MARK: State

  /// The current animation's tag, unique over the process; a new animation gets a new tag.
  /// Diagnostics name it.
  public var tag: Int {
    dancer.access(.schedule)
    return dancer.state.withLock { state in
      state.index(of: group).map { state.groups[$0].tag } ?? state.lastTag
    }
  }

  /// Whether the handle's group has an animation that has not ended; for `host.dance`,
  /// whether any group of the host has.
  public var hasAnimation: Bool {
    dancer.access(.schedule)
    return dancer.state.withLock { $0.index(of: group) != nil }
  }

  /// The animation's state; `.inactive` when there is none.
  public var state: AnimatingState { dancer.read(group: group) { $0?.state ?? .inactive } }

  /// Whether the animation is running (or waiting out a start delay).
  public var isRunning: Bool { dancer.read(group: group) { $0?.isRunning ?? false } }

  /// The fraction of the animation elapsed, 0...1 (0 shows the start values, also when
  /// reversed). Scrub with `setProgress(to:)`, which writes the host in
  /// its isolation.
  public var progress: Double {
    dancer.read(group: group, .progress) { $0?.fractionComplete ?? 0 }
  }

  /// Whether the last declared animation runs backwards, towards its start values.
  ///
  /// The last declared animation is the one chained last with `then`, if any, which starts
  /// reversed; else the current one. Set it with `setReversed(_:)`.
  public var isReversed: Bool {
    dancer.access(.schedule)
    return dancer.readLatest(
      group: group, engine: \.isReversed, link: \.isReversed, fallback: false)
  }

  /// Makes the last declared animation run backwards, or forwards.
  ///
  /// The last declared animation is the one chained last with `then`, if any, which then
  /// starts reversed; else the current one, which turns round where it is when running
  /// (writing the host, so in its isolation).
  ///
  /// - Parameters:
  ///   - reversed: Whether it runs backwards, towards its start values.
  ///   - isolation: Where the host lives, and is written; the caller's isolation unless given.
  ///   - fileID: The caller's file, for a misuse report.
  ///   - line: The caller's line, for a misuse report.
  /// - Returns: This handle, for chaining.
  @discardableResult
  public func setReversed(
    _ reversed: Bool, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line
  ) -> Dance<Host> {
    let site = CallSite(fileID: fileID, line: line)
    guard dancer.admits(isolation, "setReversed", group: group, at: site) else { return self }
    let chained = dancer.changing(.schedule) {
      dancer.state.withLock { state -> Bool in
        guard let index = state.index(of: group), !state.groups[index].chain.isEmpty else {
          return false
        }
        let last = state.groups[index].chain.count - 1
        state.groups[index].chain[last].settings.isReversed = reversed
        return true
      }
    }
    guard !chained else { return self }
    dancer.perform("setReversed", group: group, at: site) { engine, now throws(AnimatorMisuse) in
      try engine.setReversed(reversed, at: now)
    }
    return self
  }

  /// Whether the last declared animation (the one chained last with `then`, if any) stays
  /// active and paused at its end instead of completing.
  public var pausesOnCompletion: Bool {
    get {
      dancer.readLatest(
        group: group, engine: \.pausesOnCompletion, link: \.pausesOnCompletion,
        fallback: false)
    }
    nonmutating set {
      dancer.changeLatest("pausesOnCompletion", group: group, at: nil) {
        engine throws(AnimatorMisuse) in
        engine.pausesOnCompletion = newValue
      } link: { link in
        link.settings.pausesOnCompletion = newValue
      }
    }
  }

  /// Whether `setProgress(to:)` moves the values of the last declared animation linearly
  /// rather than along the timing curve.
  ///
  /// The last declared animation is the one chained last with `then`, if any. Linear is the
  /// default.
  public var scrubsLinearly: Bool {
    get {
      dancer.readLatest(
        group: group, engine: \.scrubsLinearly, link: \.scrubsLinearly, fallback: true)
    }
    nonmutating set {
      dancer.changeLatest("scrubsLinearly", group: group, at: nil) {
        engine throws(AnimatorMisuse) in
        engine.scrubsLinearly = newValue
      } link: { link in
        link.settings.scrubsLinearly = newValue
      }
    }
  }
}

/// A handle travels only as far as its host: a non-`Sendable` host's handle stays in the
/// host's region.
extension Dance: Sendable where Host: Sendable {}
