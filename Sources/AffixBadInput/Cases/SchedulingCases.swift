import Affix
import AffixScheduling
import Foundation

/// Virtual time, Dispatch, instants, frame sources and runs.
@MainActor func schedulingCases() -> [BadInputCase] {
  var list = CaseList("AffixScheduling")
  let durations = Inputs.durations

  list.add("VirtualClock.advance(by:)", durations, kind: timedClass) { probe, delay in
    let time = VirtualTime()
    let ran = Count()
    let token = time.schedule(after: .seconds(1)) { ran.bump() }
    time.advance(by: .milliseconds(1))
    let before = time.now
    time.advance(by: delay)
    probe.consistent(time.now >= before, "time went back: \(before) to \(time.now)")
    if delay >= .seconds(1) {
      probe.kept(ran.now == 1, "an action due within the advance ran \(ran.now) times")
    }
    if delay <= .zero { probe.consistent(time.now == before, "a non-positive advance moved time") }
    time.advance(by: Inputs.largest)
    probe.kept(ran.now == 1, "the action ran \(ran.now) times after advancing to the end of time")
    token.cancel()
  }

  list.add("VirtualClock.advance(to:)", durations, kind: timedClass) { probe, offset in
    let time = VirtualTime(now: Instant.zero + .seconds(10))
    let before = time.now
    let target = Instant(sinceEpoch: offset)
    time.advance(to: target)
    probe.consistent(
      time.now == max(before, target), "now is \(time.now), not \(max(before, target))")
  }

  list.add(
    "VirtualClock.advanceOnAnotherThread(by:)", Inputs.someDurations, kind: timedClass
  ) {
    probe, delay in
    let time = VirtualTime()
    let before = time.now
    time.advanceOnAnotherThread(by: delay)
    probe.consistent(time.now >= before, "time went back")
  }

  list.add(
    "VirtualClock.schedule(after:)", durations,
    kind: hugeIs(.crash, else: .lostValue)
  ) {
    probe, delay in
    let time = VirtualTime()
    let ran = Count()
    let token = time.schedule(after: delay) { ran.bump() }
    time.advance(by: .zero)
    if delay <= .zero { probe.kept(ran.now == 1, "a due action did not run at the next advance") }
    time.advance(by: delay)
    probe.kept(ran.now == 1, "the action ran \(ran.now) times by its deadline")
    probe.consistent(
      time.pendingCount == 0, "\(time.pendingCount) actions pending after their deadline")
    token.cancel()
  }

  list.add(
    "VirtualClock.scheduleRepeating(every:after:)", durations, kind: timedClass,
    reportFor: [.tiny], report: .required
  ) {
    (probe: Probe, interval: Duration) in
    let time = VirtualTime()
    let ran = Count()
    do {
      let token = try time.scheduleRepeating(every: interval, after: nil) { ran.bump() }
      time.advance(by: .milliseconds(10))
      // At the floor of one microsecond, ten milliseconds are ten thousand runs at most.
      probe.consistent(ran.now <= 10_001, "a repeat ran \(ran.now) times in 10 ms")
      token.cancel()
      time.advance(by: Inputs.largest)
      probe.consistent(ran.now <= 10_001, "a cancelled repeat ran on")
      probe.consistent(interval > .zero, "a non-positive interval was accepted")
    } catch {
      probe.consistent(
        error as? SchedulingError == .nonPositiveInterval(interval), "threw \(error)")
      probe.consistent(interval <= .zero, "a positive interval was refused")
    }
  }

  list.add(
    "VirtualClock.scheduleRepeating(every:after:).after", durations, kind: timedClass
  ) {
    probe, delay in
    let time = VirtualTime()
    let ran = Count()
    let token = try? time.scheduleRepeating(every: .milliseconds(1), after: delay) { ran.bump() }
    probe.kept(token != nil, "a usable interval was refused")
    time.advance(by: .zero)
    if delay <= .zero { probe.kept(ran.now == 1, "a repeat due now did not run") }
    time.advance(by: .milliseconds(5))
    probe.consistent(ran.now <= 6, "ran \(ran.now) times in 5 ms")
    token?.cancel()
  }

  list.add(
    "SchedulingClock.scheduleRepeating(every:_:)", durations, kind: timedClass,
    reportFor: [.tiny]
  ) {
    probe, interval in
    let time = VirtualTime()
    let ran = Count()
    let token = try? time.scheduleRepeating(every: interval) { ran.bump() }
    probe.consistent((token != nil) == (interval > .zero), "accepted \(interval): \(token != nil)")
    time.advance(by: .milliseconds(1))
    probe.consistent(ran.now <= 1_001, "a repeat ran \(ran.now) times in 1 ms")
    token?.cancel()
  }

  list.add("VirtualClock.runUntilIdle(maxSteps:)", Inputs.ints, kind: always(.hang)) {
    probe, steps in
    let time = VirtualTime()
    let ran = Count()
    let tokens = [
      time.schedule(after: .seconds(1)) { ran.bump() },
      time.schedule(after: .seconds(2)) { ran.bump() },
    ]
    let taken = time.runUntilIdle(maxSteps: steps)
    probe.consistent(taken == min(max(steps, 0), 2), "ran \(taken) of 2 with maxSteps \(steps)")
    probe.kept(
      ran.now + time.pendingCount == 2,
      "an action was lost: ran \(ran.now), pending \(time.pendingCount)")
    for token in tokens { token.cancel() }
  }

  // A live repeating timer is never idle: the steps asked for are the bound, and run.
  let someSteps = Inputs.ints.filter { $0.value <= 0 } + [Input("1e6", 1_000_000, .huge)]
  list.add(
    "VirtualClock.runUntilIdle(maxSteps:).repeating", someSteps, kind: always(.hang)
  ) {
    probe, steps in
    let time = VirtualTime()
    let token = try? time.scheduleRepeating(every: .milliseconds(1), after: nil) {}
    let taken = time.runUntilIdle(maxSteps: steps)
    probe.consistent(taken == max(steps, 0), "ran \(taken) steps of \(steps)")
    token?.cancel()
  }

  list.add("VirtualClock.init(now:)", durations, kind: always(.crash)) { probe, offset in
    let time = VirtualTime(now: Instant(sinceEpoch: offset))
    let start = time.now
    let ran = Count()
    let once = time.schedule(after: .seconds(1)) { ran.bump() }
    let repeating = try? time.scheduleRepeating(every: .seconds(1), after: nil) { ran.bump() }
    time.advance(by: .seconds(3))
    probe.consistent(time.now >= start, "time went back")
    probe.consistent(ran.now <= 4, "ran \(ran.now) times in 3 s")
    repeating?.cancel()
    probe.consistent(time.runUntilIdle(maxSteps: 10) <= 1, "actions left after cancelling")
    once.cancel()
  }

  list.add("VirtualClock.sleep(until:tolerance:)", durations, kind: always(.hang)) {
    probe, offset in
    let time = VirtualTime()
    let deadline = Instant(sinceEpoch: offset)
    let woke = Count()
    let sleeper = Task { @MainActor in
      try? await time.sleep(until: deadline, tolerance: nil)
      woke.bump()
    }
    for _ in 0..<20 { await Task.yield() }
    time.advance(by: .seconds(1))
    for _ in 0..<20 { await Task.yield() }
    if deadline <= Instant.zero + .seconds(1) {
      await sleeper.value
      probe.kept(woke.now == 1, "a sleeper past its deadline did not wake")
    } else {
      probe.consistent(woke.now == 0, "a sleeper woke before its deadline")
      sleeper.cancel()
      await sleeper.value
    }
  }

  for base in [
    ("zero", Instant.zero), ("top", Instant(sinceEpoch: Inputs.largest)),
    ("bottom", Instant(sinceEpoch: Inputs.smallest)),
  ] {
    list.sweep("SchedulingInstant.+(_:_:).\(base.0)", Inputs.allDurations, .crash) { probe, input in
      let delay = input.value
      let sum = base.1 + delay
      let advanced = base.1.advanced(by: delay)
      probe.consistent(sum == advanced, "+ and advanced(by:) disagree for \(delay)")
      if delay > .zero { probe.consistent(sum >= base.1, "adding \(delay) went back") }
      if delay < .zero { probe.consistent(sum <= base.1, "adding \(delay) went forward") }
      let back = sum - base.1
      let apart = base.1.duration(to: sum)
      probe.consistent(back == apart, "- and duration(to:) disagree for \(delay)")
      probe.consistent(
        (back > .zero) == (sum > base.1), "the difference has the wrong sign for \(delay)")
    }
  }

  list.sweep("SchedulingInstant.init(sinceEpoch:)", Inputs.allDurations, .crash) { probe, input in
    let instant = Instant(sinceEpoch: input.value)
    probe.kept(instant.sinceEpoch == input.value, "sinceEpoch is not \(input.value)")
    _ = instant.description
  }

  list.add(
    "DispatchClock.schedule(after:_:)", durations,
    kind: hugeIs(.lostValue, else: .crash)
  ) {
    probe, delay in
    let queue = QueueTime(queue: DispatchQueue(label: "badinput.schedule"))
    let fired = DispatchSemaphore(value: 0)
    let token = queue.schedule(after: delay) { fired.signal() }
    if delay <= .milliseconds(1) {
      probe.kept(fired.wait(timeout: .now() + 5) == .success, "a due action did not run in 5 s")
    } else {
      // Far in the future: it must not come at once (a deadline past Dispatch's range once did).
      probe.consistent(
        fired.wait(timeout: .now() + 0.05) == .timedOut, "an action \(delay) away ran at once")
    }
    token.cancel()
  }

  list.add(
    "DispatchClock.scheduleRepeating(every:after:_:)", durations, kind: timedClass,
    reportFor: [.tiny], report: .required
  ) {
    probe, interval in
    let queue = QueueTime(queue: DispatchQueue(label: "badinput.repeat"))
    let ran = Count()
    do {
      let token = try queue.scheduleRepeating(every: interval, after: nil) { ran.bump() }
      usleep(20_000)
      token.cancel()
      probe.consistent(interval > .zero, "a non-positive interval was accepted")
      if interval >= .seconds(1) {
        probe.consistent(ran.now == 0, "a repeat \(interval) apart ran at once")
      }
    } catch {
      probe.consistent(interval <= .zero, "a positive interval was refused: \(error)")
    }
  }

  list.add(
    "FrameSource.init(clock:framesPerSecond:)",
    Inputs.ints + [
      Input("1001", 1001, .huge), Input("1e9", 1_000_000_000, .huge), Input("1000", 1000, .tiny),
    ],
    kind: always(.hang), reportFor: [.negative, .zero, .huge]
  ) { probe, rate in
    let time = VirtualTime()
    let frames = makeFrames(on: time, framesPerSecond: rate)
    probe.consistent(
      frames.interval >= .milliseconds(1) && frames.interval <= .seconds(1),
      "interval \(frames.interval)")
    let seen = Count()
    let token = frames.subscribe { _ in seen.bump() }
    time.advance(by: .milliseconds(100))
    probe.consistent(seen.now > 0 && seen.now <= 101, "\(seen.now) frames in 100 ms")
    token.cancel()
    time.advance(by: .milliseconds(100))
    probe.consistent(seen.now <= 101, "a cancelled subscriber heard more frames: \(seen.now)")
  }

  list.sweep("FrameSource.Frame.init(index:timestamp:delta:)", Inputs.ints, .crash) {
    probe, input in
    let index = input.value
    let frame = Frame(
      index: index, timestamp: Instant(sinceEpoch: Inputs.smallest), delta: Inputs.largest)
    probe.kept(frame.index == index, "the index is not kept")
  }

  list.add("FrameSource.subscribe(_:).advance", durations, kind: timedClass) { probe, delay in
    let stage = Stage(framesPerSecond: 60)
    let deltas = Box<[Duration]>([])
    let token = stage.frames.subscribe { frame in deltas.update { $0.append(frame.delta) } }
    stage.time.advance(by: min(delay, .seconds(2)))
    let seen = deltas.now
    probe.consistent(seen.count <= 121, "\(seen.count) frames in at most 2 s")
    probe.consistent(seen.allSatisfy { $0 >= .zero }, "a frame with a negative delta")
    token.cancel()
  }

  // A run's calls in the wrong state.
  list.add("ScheduledRun.finish(_:)", "staleID", .wrongState) { probe in
    let run = ScheduledRun()
    let first = run.start { _ in CancellationToken.cancelled() }
    _ = run.start { _ in CancellationToken.cancelled() }
    probe.consistent(first.map { run.finish($0) } == false, "a stale run finished the current one")
    probe.consistent(run.isRunning, "a stale finish stopped the current run")
  }
  list.add("ScheduledRun.finish(_:)", "twice", .wrongState) { probe in
    let run = ScheduledRun()
    guard let id = run.start({ _ in nil }) else {
      return probe.fail(.inconsistent, "no run started")
    }
    probe.consistent(run.finish(id) && !run.finish(id), "finished twice")
    probe.consistent(!run.isRunning, "running after finishing")
  }
  list.add("ScheduledRun.start(_:)", "afterShutDown", .wrongState) { probe in
    let run = ScheduledRun()
    run.shutDown()
    let scheduled = Count()
    let id = run.start { _ in
      scheduled.bump()
      return nil
    }
    probe.consistent(id == nil || !run.isRunning, "a run started after shutting down")
  }
  list.add("ScheduledRun.cancel()", "whenIdle", .wrongState) { probe in
    let run = ScheduledRun()
    probe.consistent(!run.cancel(), "cancelled a run never started")
    run.shutDown()
    run.shutDown()
    probe.consistent(!run.cancel() && !run.isRunning, "cancelled after shutting down")
  }
  list.add("Waiters.resumeAll(returning:)", "noWaiters", .wrongState) { probe in
    let waiters = Waiters<Int>()
    waiters.resumeAll(returning: 1)
    waiters.resumeAll(returning: 2)
    probe.consistent(waiters.count == 0, "\(waiters.count) waiters")
  }

  return list.cases
}
