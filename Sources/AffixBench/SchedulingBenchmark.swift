import Affix
import AffixScheduling
import Dispatch
import Foundation
import Synchronization

/// `affix-bench scheduling`: the cost of a cancelled delayed task, and how much frame work one
/// shared frame source does at saturation against one Dispatch timer per subscriber.
enum SchedulingBenchmark {
  /// Enough subscribers that neither side keeps up with the frame rate asked for: each figure
  /// is then the work a side can do per second, not the rate it was asked to deliver.
  static let subscribers = 100_000
  /// The fastest rate a frame source runs at; the timers are asked for the same.
  static let framesPerSecond = FrameSource.maximumFramesPerSecond
  static let window = Duration.seconds(1)
  /// A side that delivers this share of what it was asked for measured its request, not its
  /// capacity, and the run fails.
  static let saturationLimit = 0.9

  /// Prints every figure; `quick` shortens each measurement (for CI smoke runs).
  static func run(quick: Bool = false) {
    let scale = quick ? 10 : 1
    let dispatch = DispatchClock(queue: DispatchQueue(label: "bench.schedule-cancel"))
    let dispatchCost = scheduleAndCancelCost(on: dispatch, iterations: 100_000 / scale)
    report("scheduling.dispatch_schedule_cancel", dispatchCost, "ns", digits: 1)
    let virtualCost = scheduleAndCancelCost(
      on: VirtualClock(), iterations: 1_000_000 / scale)
    report("scheduling.virtual_schedule_cancel", virtualCost, "ns", digits: 1)

    // A frame source runs at most 1,000 frames a second: with few subscribers it delivers
    // exactly what it is asked for, and its figure would be its cap. So many subscribers that
    // each frame's work outlasts the frame measure work per tick at saturation, on both sides.
    let requested = Double(subscribers * framesPerSecond)
    print("scheduling.requested_ticks_per_s: \(Int(requested)) ticks/s")
    let window = self.window / scale
    let clockRate = frameClockTicksPerSecond(window: window)
    report("scheduling.frame_clock_ticks_per_s", clockRate, "ticks/s", digits: 0)
    report("scheduling.frame_clock_ns_per_tick", 1e9 / clockRate, "ns", digits: 1)
    let timerRate = separateTimersTicksPerSecond(window: window)
    report("scheduling.timers_ticks_per_s", timerRate, "ticks/s", digits: 0)
    reportRatio("scheduling.frame_clock_speedup_vs_timers", clockRate / timerRate)
    requireSaturation("frame source", delivered: clockRate, requested: requested)
    requireSaturation("timers", delivered: timerRate, requested: requested)
  }

  /// Exits with status 1 when a side delivered nearly all it was asked for: its figure is then
  /// the request, and a ratio built on it says nothing about capacity.
  static func requireSaturation(_ side: String, delivered: Double, requested: Double) {
    let share = delivered / requested
    print(
      "scheduling.\(side == "timers" ? "timers" : "frame_clock")_share_of_request: "
        + "\(formatted(share * 100, digits: 1)) %")
    guard share < saturationLimit else {
      print(
        "affix-bench: NOT SATURATED: the \(side) delivered \(formatted(share * 100, digits: 1)) %"
          + " of the ticks asked for, so its figure measures the request; add subscribers")
      exit(1)
    }
  }

  /// Nanoseconds to schedule a delayed action and cancel it before it is due.
  static func scheduleAndCancelCost(on scheduler: any SchedulingClock, iterations: Int) -> Double {
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for _ in 0..<iterations {
        scheduler.schedule(after: .seconds(60)) {}.cancel()
      }
    }
    return elapsed / .nanoseconds(1) / Double(iterations)
  }

  /// Ticks delivered per second to every subscriber of one frame source on a private queue.
  static func frameClockTicksPerSecond(window: Duration) -> Double {
    let scheduler = DispatchClock(queue: DispatchQueue(label: "bench.frame-source"))
    let clock = FrameSource(clock: scheduler, framesPerSecond: framesPerSecond)
    let counter = Counter()
    let subscriptions = (0..<subscribers).map { _ in clock.subscribe { _ in counter.increment() } }
    let rate = measureRate(of: counter, over: window)
    for subscription in subscriptions { subscription.cancel() }
    return rate
  }

  /// Ticks delivered per second by one Dispatch timer per subscriber, on a private queue.
  static func separateTimersTicksPerSecond(window: Duration) -> Double {
    let scheduler = DispatchClock(queue: DispatchQueue(label: "bench.timers"))
    let counter = Counter()
    let interval = Duration.seconds(1) / framesPerSecond
    let timers = (0..<subscribers).compactMap { _ in
      try? scheduler.scheduleRepeating(every: interval) { counter.increment() }
    }
    let rate = measureRate(of: counter, over: window)
    for timer in timers { timer.cancel() }
    return rate
  }

  /// Counts what `counter` gains over the measuring window, per second of real time.
  static func measureRate(of counter: Counter, over window: Duration) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let before = counter.value
    _ = DispatchSemaphore(value: 0).wait(
      timeout: .now() + .nanoseconds(Int(window / .nanoseconds(1))))
    let ticks = counter.value - before
    return Double(ticks) / (start.duration(to: clock.now) / .seconds(1))
  }

  final class Counter: Sendable {
    private let count = Atomic(0)

    func increment() {
      count.add(1, ordering: .relaxed)
    }

    var value: Int {
      count.load(ordering: .relaxed)
    }
  }
}
