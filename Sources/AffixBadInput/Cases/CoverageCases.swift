import Affix
import AffixDancing
import AffixDraggable
import AffixLoading
import AffixMotion
import AffixScheduling
import Foundation

/// An actor that reaches for a main-actor value.
actor Stranger {
  func read(_ bound: IsolationBound<[Int]>) -> Int? {
    bound.withValue { $0.count }
  }
}

/// The entry points the tables above leave out: sleeps and their tolerances, streams and
/// values of dead hosts, values bound to an isolation, release decisions, and the rarer
/// variants of the animation calls.
@MainActor func coverageCases() -> [BadInputCase] {
  var scheduling = CaseList("AffixScheduling")
  scheduling.add(
    "VirtualClock.sleep(until:tolerance:).tolerance", Inputs.durations, kind: always(.hang)
  ) {
    probe, tolerance in
    let time = VirtualTime()
    let woke = Count()
    let sleeper = Task { @MainActor in
      try? await time.sleep(until: Instant.zero + .seconds(1), tolerance: tolerance)
      woke.bump()
    }
    for _ in 0..<20 { await Task.yield() }
    time.advance(by: .seconds(2))
    await sleeper.value
    probe.kept(woke.now == 1, "a sleeper with a tolerance of \(tolerance) did not wake")
  }
  scheduling.add("DispatchClock.sleep(until:tolerance:)", Inputs.durations, kind: always(.hang)) {
    probe, offset in
    let queue = QueueTime(queue: DispatchQueue(label: "badinput.sleep"))
    let deadline = queue.now + offset
    let threw = Box(false)
    if offset <= .zero {
      do { try await queue.sleep(until: deadline, tolerance: nil) } catch { threw.set(true) }
      probe.consistent(!threw.now, "a sleep until a deadline passed threw")
    } else {
      // A deadline in the future: cancelled, the sleep must end, saying it was cancelled.
      await cancelled {
        do { try await queue.sleep(until: deadline, tolerance: nil) } catch { threw.set(true) }
      }
      // Or it slept: a deadline an attosecond away may pass before the cancellation.
      probe.consistent(
        threw.now || queue.now >= deadline, "a cancelled sleep returned before its deadline")
    }
  }
  var motion = CaseList("AffixDraggable")
  motion.sweep("DecelerationRate.projection(of:).CGPoint", Inputs.points, .nonFinite) {
    probe, input in
    let projected = DecelerationRate.fast.projection(of: input.value)
    if input.family != .nonFinite { probe.finite(projected, "projection of \(input.value)") }
  }

  var core = CaseList("Affix")
  core.add("Associations.values(for:)", "hostDies", .hang) { probe in
    var ledger: Ledger? = Ledger()
    let stream = Associations(of: ledger!).values(for: Count17Key.self)
    Associations(of: ledger!)[Count17Key.self] = 4
    ledger = nil
    AssociationTable.sweep()
    var seen: [Int] = []
    for await value in stream { seen.append(value) }
    probe.kept(seen.last == 4 || seen.isEmpty, "the stream of a dead host gave \(seen)")
  }
  core.add("Associations.values(for:)", "cancelled", .hang) { probe in
    let ledger = Ledger()
    let stream = Associations(of: ledger).values(for: Count17Key.self)
    await cancelled {
      for await _ in stream {}
    }
    // The host's values outlive a cancelled stream of them.
    Associations(of: ledger)[Count17Key.self] = 5
    probe.kept(Associations(of: ledger)[Count17Key.self] == 5, "a value set after the stream")
  }
  for (label, host) in bridgedHosts() {
    core.add("Associations.value(for:orInsert:)", label, .refusedHost, report: .required) { probe in
      enum Maybe: AssociatedKey {
        static let defaultValue: Int? = nil
      }
      let made = Count()
      let value = Associations(of: host()).value(for: Maybe.self) {
        made.bump()
        return 3
      }
      probe.kept(value == 3, "the value made for a refused host was not returned")
      probe.consistent(made.now == 1, "made \(made.now) times")
    }
  }
  core.add("IsolationBound.withValue(_:)", "fromAnotherActor", .wrongState) { probe in
    let bound = IsolationBound([1, 2, 3])
    let read = await Stranger().read(bound)
    probe.consistent(read == nil, "another actor read a main-actor value")
    probe.kept(bound.withValue { $0.count } == 3, "the value is gone on its own actor")
  }

  var dancing = CaseList("AffixDancing")
  for (state, setUp) in [
    (
      "stopped",
      { @MainActor (dance: Dance<Sprite>, stage: Stage) in
        dance.start()
        stage.advance(milliseconds: 300)
        dance.stop()
      }
    ),
    ("noAnimation", { @MainActor (_: Dance<Sprite>, _: Stage) in }),
  ] {
    dancing.add(
      "Dance.setReversed(_:)", state, .wrongState, report: .atCaller
    ) { probe in
      let stage = Stage()
      let sprite = Sprite()
      let dance = stage.dance(sprite)
      if state != "noAnimation" { dance.animate(duration: 1, curve: .linear) { $0.x = 100 } }
      setUp(dance, stage)
      let x = sprite.x
      dance.setReversed(true)
      stage.advance(milliseconds: 500)
      probe.consistent(sprite.x == x, "setReversed moved x from \(x) to \(sprite.x)")
    }
  }
  dancing.add(
    "Dance.pausesOnCompletion", "thenSetProgressOutOfRange", .wrongState, report: .atCaller
  ) { probe in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 0.5, curve: .linear) { $0.x = 100 }
    dance.pausesOnCompletion = true
    dance.start()
    stage.advance(milliseconds: 1000)
    probe.consistent(
      dance.state == .active && !dance.isRunning && sprite.x == 100, "\(dance.state), x \(sprite.x)"
    )
    dance.setProgress(to: 7.5)
    probe.consistent(
      dance.progress.isWithin(0...1) && sprite.x.isWithin(0...100),
      "progress \(dance.progress), x \(sprite.x)")
    dance.stop(withoutFinishing: true)
  }
  dancing.add(
    "Dance.then(duration:timingParameters:_:)", Inputs.doubles,
    kind: numericClass
  ) {
    probe, value in
    let stage = Stage()
    let sprite = Sprite()
    let dance = stage.dance(sprite).animate(duration: 0.2) { $0.x = 50 }
      .then(duration: 0.5, timingParameters: .spring(dampingRatio: value, initialVelocity: value)) {
        $0.x = 100
      }
      .start()
    watch(dance, sprite, on: stage, probe)
  }

  var dragging = CaseList("AffixDraggable")
  dragging.add(
    "DragController.onRelease(_:).snap(to:)", Inputs.points, kind: numericClass,
    reportFor: [.nonFinite], report: .required
  ) {
    probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let card = Card()
    let controller = card.makeDraggable(world: world)
    controller.onRelease { _ in .snap(to: point) }
    controller.drag(.began(at: .zero))
    controller.drag(.changed(to: CGPoint(x: 20, y: 20)))
    controller.drag(.ended(velocity: .zero))
    probe.finite(controller.snapPoint, "the snap point after a release decided \(point)")
    watch(card, world: world, on: stage, rests: point.x.magnitude < 1e6, probe)
  }
  dragging.add("DragController.snapPoints", "empty", .wrongState, report: .required) { probe in
    let stage = Stage(framesPerSecond: 60)
    let card = Card()
    let drag = card.makeDraggable(
      snapPoints: [CGPoint(x: 1, y: 1), CGPoint(x: 9, y: 9)], world: stage.world())
    drag.snapPoints = []
    probe.kept(
      drag.snapPoints.count == 2, "an empty list replaced the snap points: \(drag.snapPoints)")
  }
  dragging.add(
    "DynamicsWorld.makeBody(at:bounds:onMove:)", Inputs.points, kind: numericClass,
    reportFor: [.nonFinite], report: .required
  ) {
    probe, point in
    let stage = Stage(framesPerSecond: 60)
    let world = stage.world()
    let moves = Box<[CGPoint]>([])
    let body = world.makeBody(at: point) { position in
      moves.update { $0.append(position) }
      return true
    }
    body.snap(Snap(to: CGPoint(x: 10, y: 10)))
    stage.advance(milliseconds: 30_000)
    probe.finite(moves.now.flatMap { [Double($0.x), Double($0.y)] }, "a move handed to onMove")
    probe.consistent(!world.needsFrames, "the body never rested")
  }

  var loading = CaseList("AffixLoading")
  for (label, total, done) in [
    ("zeroTotal", Int64(0), Int64(0)), ("overDone", 10, 1_000), ("negative", -3, -7),
  ] {
    loading.add("Loading.withLoading(message:progress:_:)", label, .nonFinite) { probe in
      let time = VirtualTime()
      let host = Document(time: time, options: .init(graceTime: .zero))
      let progress = Progress(totalUnitCount: total)
      progress.completedUnitCount = done
      let value = await host.withLoading(progress: progress) {
        time.advance(by: .seconds(1))
        return 5
      }
      probe.kept(value == 5, "the work's result was lost")
      time.advance(by: .seconds(2))
      if let controller = LoadingController.attached(to: host) {
        checkLoading(controller, host.indicator, probe)
      }
    }
  }
  return scheduling.cases + motion.cases + core.cases + dancing.cases + dragging.cases
    + loading.cases
}
