import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import AffixTooltip
import Foundation

// The re-entrancy matrix: every kind of callback the library runs, each calling back into
// each entry point of the same host, checked against the rule in Docs/Concurrency.md ("Callbacks
// that call back in"): nothing traps or hangs, the re-entrant call takes effect at once, and
// the state afterwards is what the call's documentation says.

/// A host of every mixin, `Sendable` so that a frame's or a clock's callback may reach it: its
/// properties live behind a lock, and a write through a key path is a write of the lock's state.
final class Puppet: Draggable, Loading, Tooltipped, Sendable {
  private struct State {
    var center = CGPoint.zero
    var x = 0.0
    var isTooltipShown = false
  }
  private let state = LockedState(State())
  let time = VirtualTime()
  let frames: Frames
  let world: DynamicsWorld
  let indicator = RecordingIndicator()
  /// Run when the indicator's controller shows it, or the tooltip shows.
  let onShow = LockedState<(@Sendable () -> Void)?>(nil)
  /// The capabilities of the lifecycle's callbacks, made for this puppet.
  let hooked = Box<[Hooked]>([])

  init() {
    frames = makeFrames(on: time, framesPerSecond: 100)
    world = DynamicsWorld(frames: frames)
  }

  var center: CGPoint {
    get { state.withLock { $0.center } }
    set { state.withLock { $0.center = newValue } }
  }

  var x: Double {
    get { state.withLock { $0.x } }
    set { state.withLock { $0.x = newValue } }
  }

  var isTooltipShown: Bool {
    get { state.withLock { $0.isTooltipShown } }
    set {
      state.withLock { $0.isTooltipShown = newValue }
      if newValue { fireShow() }
    }
  }

  /// Runs the show hook once, taking it out first: a hook that shows again runs nothing more.
  func fireShow() {
    let hook = onShow.withLock { $0.take() }
    hook?()
  }

  var dance: Dance<Puppet> { Dance.of(self, frames: frames) }

  func makeLoadingIndicator() -> any LoadingIndicator { ShowingIndicator(self) }
  var loadingClock: any SchedulingClock { time }
  var loadingOptions: LoadingOptions {
    LoadingOptions(graceTime: .milliseconds(10), minimumShowTime: .milliseconds(10))
  }
  var tooltipClock: any SchedulingClock { time }
  var tooltipTiming: TooltipTiming {
    TooltipTiming(showDelay: .milliseconds(10), hideDelay: .milliseconds(10))
  }

  /// Runs ten seconds of virtual time: every motion and timer started comes to its end.
  func settle() {
    time.advance(by: .seconds(10))
  }

  static let home = CGPoint(x: 0, y: 0)
  static let away = CGPoint(x: 300, y: 0)
  static let elsewhere = CGPoint(x: 0, y: 400)
}

/// An indicator that records what it is told, and runs the puppet's show hook as it appears.
final class ShowingIndicator: LoadingIndicator, Sendable {
  private let puppet: Puppet
  init(_ puppet: Puppet) { self.puppet = puppet }
  var wantsTicks: Bool { false }
  func appear(message: String?) {
    puppet.indicator.appear(message: message)
    puppet.fireShow()
  }
  func tick(frame: Int, angle: Double) { puppet.indicator.tick(frame: frame, angle: angle) }
  func update(message: String?) { puppet.indicator.update(message: message) }
  func update(progress: Double?) { puppet.indicator.update(progress: progress) }
  func disappear(outcome: LoadingOutcome) { puppet.indicator.disappear(outcome: outcome) }
}

/// A value whose release runs a hook: a value's `deinit` calling back in.
final class Releasing: Sendable {
  let hook: @Sendable () -> Void
  init(_ hook: @escaping @Sendable () -> Void) { self.hook = hook }
  deinit { hook() }
}

enum ReleasingKey: AssociatedKey {
  static let defaultValue: Releasing? = nil
}

enum MarkKey: AssociatedKey {
  static let defaultValue = 0
}

/// A capability that runs hooks as it attaches and ends.
final class Hooked: Capability {
  let onAttach: (@Sendable () -> Void)?
  let onReplaced: (@Sendable () -> Void)?
  /// What it heard, in order.
  let heard = Box<[String]>([])
  init(
    on puppet: Puppet, onAttach: (@Sendable () -> Void)? = nil,
    onReplaced: (@Sendable () -> Void)? = nil
  ) {
    self.onAttach = onAttach
    self.onReplaced = onReplaced
    puppet.hooked.update { $0.append(self) }
  }
  func didAttach(to host: AnyWeakReference) {
    heard.update { $0.append("attach") }
    onAttach?()
  }
  func didEnd(_ ending: CapabilityEnding) {
    heard.update { $0.append("end") }
    if ending == .replaced { onReplaced?() }
  }
}

/// One entry point a callback calls back into, and what the documentation says the host's
/// state is afterwards, once time has run on.
struct Reentry: Sendable {
  let name: String
  /// The call, on the main actor, from inside the callback.
  let call: @MainActor @Sendable (Puppet) -> Void
  /// The check, after the callback returned and ten seconds ran.
  let check: @MainActor @Sendable (Puppet, Probe) -> Void
}

/// One kind of callback: sets the puppet up so that the callback runs `reenter` once, makes it
/// run, and lets time run on.
struct Callback: Sendable {
  let name: String
  let run: @MainActor @Sendable (Puppet, _ reenter: @escaping @Sendable () -> Void) -> Void
}

/// Every re-entered entry point, with its check.
@MainActor let reentries: [Reentry] = [
  Reentry(
    name: "drag",
    call: { puppet in
      if !puppet.isDraggable {
        puppet.makeDraggable(snapPoints: [Puppet.home, Puppet.away], world: puppet.world)
      }
      puppet.drag(.began(at: puppet.center))
      puppet.drag(.ended(velocity: CGPoint(x: 2_000, y: 0)))
    },
    check: { puppet, probe in
      guard let drag = puppet.dragController else {
        return probe.consistent(false, "the re-entrant drag left the puppet not draggable")
      }
      probe.consistent(!drag.isDragging, "still dragging after the drag ended")
      probe.consistent(
        drag.snapPoints.contains(drag.snapPoint),
        "snap point \(drag.snapPoint) is not one of \(drag.snapPoints)")
      probe.consistent(
        puppet.center == drag.snapPoint, "at rest at \(puppet.center), not \(drag.snapPoint)")
    }),
  Reentry(
    name: "makeDraggable",
    call: { puppet in puppet.makeDraggable(snapPoint: Puppet.elsewhere, world: puppet.world) },
    check: { puppet, probe in
      guard let drag = puppet.dragController else {
        return probe.consistent(false, "not draggable after makeDraggable")
      }
      probe.kept(drag.snapPoints == [Puppet.elsewhere], "snap points \(drag.snapPoints)")
      probe.consistent(!drag.body.isRemoved, "the new controller's body left the world")
    }),
  Reentry(
    name: "removeDraggable",
    call: { puppet in if puppet.isDraggable { puppet.removeDraggable() } },
    check: { puppet, probe in
      probe.consistent(!puppet.isDraggable, "still draggable after removeDraggable")
    }),
  Reentry(
    name: "animate",
    call: { puppet in puppet.dance.animate(duration: 0.1, curve: .linear) { $0.x = 42 }.start() },
    check: { puppet, probe in
      probe.consistent(!puppet.dance.hasAnimation, "an animation is left after ten seconds")
      probe.finite(puppet.x, "x")
      probe.consistent(
        [42, 10, 20].contains(puppet.x), "x = \(puppet.x), none of the targets written")
    }),
  Reentry(
    name: "stop",
    call: { puppet in puppet.dance.stop() },
    check: { puppet, probe in
      probe.finite(puppet.x, "x")
      probe.consistent(
        puppet.dance.state == .inactive || !puppet.dance.hasAnimation,
        "state \(puppet.dance.state) after a stop and ten seconds")
    }),
  Reentry(
    name: "startLoading+stopLoading",
    call: { puppet in
      puppet.startLoading()
      puppet.stopLoading()
    },
    check: { puppet, probe in
      probe.consistent(!puppet.isLoading, "still loading: \(puppet.loadingState)")
      probe.consistent(!puppet.indicator.isShown, "the indicator is still shown")
    }),
  Reentry(
    name: "pointerEntered+pointerExited",
    call: { puppet in
      puppet.pointerEntered()
      puppet.pointerExited()
    },
    check: { puppet, probe in
      probe.consistent(!puppet.isTooltipShown, "the tooltip is still shown")
      probe.consistent(
        puppet.tooltip?.isShown ?? false == puppet.isTooltipShown,
        "the controller and the view disagree")
    }),
  Reentry(
    name: "Associations.subscript(set)",
    call: { puppet in Associations(of: puppet)[MarkKey.self] = 7 },
    check: { puppet, probe in
      probe.kept(Associations(of: puppet)[MarkKey.self] == 7, "the value set is gone")
    }),
  Reentry(
    name: "removeCapability",
    call: { puppet in Associations(of: puppet).removeCapability(Hooked.self) },
    check: { puppet, probe in
      probe.consistent(
        Associations(of: puppet).capability(Hooked.self) == nil, "the capability is still there")
    }),
]

/// Whether this is the first call: takes the flag down.
func first(_ flag: Box<Bool>) -> Bool {
  var was = false
  flag.update {
    was = $0
    $0 = false
  }
  return was
}

/// Every kind of callback, made to run once.
@MainActor let callbacks: [Callback] = [
  Callback(name: "onRelease") { puppet, reenter in
    let drag = puppet.makeDraggable(snapPoints: [Puppet.home, Puppet.away], world: puppet.world)
    // Once: a re-entrant drag ends in this handler again.
    let once = Box(true)
    drag.onRelease { _ in
      if first(once) { reenter() }
      return .snapToNearest
    }
    puppet.drag(.began(at: Puppet.home))
    puppet.drag(.ended(velocity: .zero))
  },
  Callback(name: "onRest") { puppet, reenter in
    let drag = puppet.makeDraggable(snapPoints: [Puppet.home, Puppet.away], world: puppet.world)
    let once = Box(true)
    let token = drag.body.onRest {
      if first(once) { reenter() }
    }
    puppet.drag(.began(at: Puppet.home))
    puppet.drag(.ended(velocity: CGPoint(x: 2_000, y: 0)))
    puppet.time.advance(by: .seconds(5))
    withExtendedLifetime(token) {}
  },
  Callback(name: "addCompletion") { puppet, reenter in
    puppet.dance.animate(duration: 0.1) { $0.x = 10 }.addCompletion { _ in reenter() }.start()
    puppet.time.advance(by: .milliseconds(200))
  },
  Callback(name: "then") { puppet, reenter in
    puppet.dance.animate(duration: 0.1) { $0.x = 10 }
      .then(duration: 0.1) { proxy in
        proxy.x = 20
        reenter()
      }
      .start()
    puppet.time.advance(by: .milliseconds(300))
  },
  Callback(name: "animations block") { puppet, reenter in
    puppet.dance.animate(duration: 0.1) { proxy in
      proxy.x = 10
      reenter()
    }.start()
  },
  Callback(name: "didAttach") { puppet, reenter in
    Associations(of: puppet).attach(
      Hooked(on: puppet, onAttach: { MainActor.assumeIsolated { reenter() } }))
  },
  Callback(name: "didEnd(.replaced)") { puppet, reenter in
    Associations(of: puppet).attach(
      Hooked(on: puppet, onReplaced: { MainActor.assumeIsolated { reenter() } }))
    Associations(of: puppet).attach(Hooked(on: puppet))
  },
  Callback(name: "observe") { puppet, reenter in
    let once = Box(true)
    let token = Associations(of: puppet).observe(MarkKey.self) { _ in
      if first(once) { reenter() }
    }
    Associations(of: puppet)[MarkKey.self] = 1
    withExtendedLifetime(token) {}
  },
  Callback(name: "value deinit") { puppet, reenter in
    Associations(of: puppet)[ReleasingKey.self] = Releasing {
      MainActor.assumeIsolated { reenter() }
    }
    Associations(of: puppet)[ReleasingKey.self] = nil
    // The replaced value is released in the sweep after it, which runs its deinit.
    AssociationTable.sweep()
  },
  Callback(name: "indicator appear") { puppet, reenter in
    puppet.onShow.withLock { $0 = { MainActor.assumeIsolated { reenter() } } }
    puppet.startLoading()
    puppet.time.advance(by: .milliseconds(50))
    puppet.stopLoading()
  },
  Callback(name: "tooltip show") { puppet, reenter in
    puppet.onShow.withLock { $0 = { MainActor.assumeIsolated { reenter() } } }
    puppet.pointerEntered()
    puppet.time.advance(by: .milliseconds(50))
    puppet.pointerExited()
  },
  Callback(name: "frame subscriber") { puppet, reenter in
    let once = Box(true)
    let subscription = puppet.frames.subscribe { _ in
      if first(once) { MainActor.assumeIsolated { reenter() } }
    }
    puppet.time.advance(by: .milliseconds(50))
    subscription.cancel()
  },
  Callback(name: "clock action") { puppet, reenter in
    let token = puppet.time.schedule(after: .milliseconds(10)) {
      MainActor.assumeIsolated { reenter() }
    }
    puppet.time.advance(by: .milliseconds(50))
    withExtendedLifetime(token) {}
  },
]

@MainActor func reentrancyCases() -> [BadInputCase] {
  var list = CaseList("Reentrancy")
  for callback in callbacks {
    for reentry in reentries {
      list.add("\(callback.name) -> \(reentry.name)", "reentrant", .reentrant) { probe in
        let puppet = Puppet()
        let calls = Count()
        callback.run(puppet) {
          calls.bump()
          MainActor.assumeIsolated { reentry.call(puppet) }
        }
        puppet.settle()
        let count = calls.now
        probe.consistent(count == 1, "the callback ran \(count) times, not once")
        // The lifecycle's order, whatever was re-entered: an attach, then at most one end.
        for hooked in puppet.hooked.now {
          let heard = hooked.heard.now
          probe.consistent(
            heard == [] || heard == ["attach"] || heard == ["attach", "end"],
            "a capability heard \(heard)")
        }
        reentry.check(puppet, probe)
      }
    }
  }
  return list.cases
}
