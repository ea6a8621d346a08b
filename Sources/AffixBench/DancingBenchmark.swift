import Affix
import AffixDancing
import AffixScheduling
import Dispatch
import Foundation

/// `affix-bench dancing`: the per-frame cost of animated properties, and an idle clock's
/// wake-ups.
@MainActor enum DancingBenchmark {
  private final class Layer {
    var x = 0.0
    var y = 0.0
    var opacity = 1.0
    var scale = 1.0
  }

  nonisolated static let animations = 10_000
  /// Rounds of `framesPerRound` frames of each workload, taken in turn: a change in the
  /// machine's speed during the run (this VM's swings by half) reaches every workload alike.
  nonisolated static let rounds = 24
  nonisolated static let framesPerRound = 5

  /// One measured configuration: a frame of work over `operations` property writes.
  private struct Workload {
    let operations: Int
    let frame: (Int) -> Void
    /// Nanoseconds per operation of each round.
    var samples: [Double] = []

    init(operations: Int, frame: @escaping (Int) -> Void) {
      self.operations = operations
      self.frame = frame
    }

    mutating func measure(round: Int) {
      let start = threadNanoseconds()
      for index in 0..<framesPerRound { frame(round * framesPerRound + index) }
      let elapsed = Double(threadNanoseconds() - start)
      samples.append(elapsed / Double(framesPerRound * operations))
    }

    /// The fastest round: the cost with the least interference from the rest of the machine.
    var best: Double { samples.min() ?? .nan }
    var median: Double { samples.sorted()[samples.count / 2] }
  }

  /// This thread's processor time: time spent preempted does not count at all.
  private nonisolated static func threadNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  static func run() {
    var workloads = [
      animated(propertiesPerAnimation: 1), animated(propertiesPerAnimation: 4),
      directWrites(), keyPathWrites(), retargeted(),
      heldWrites(), weakWrites(),
    ]
    for round in 0..<rounds {
      for index in workloads.indices { workloads[index].measure(round: round) }
    }
    let (one, four, direct, keyPath) = (workloads[0], workloads[1], workloads[2], workloads[3])
    report("dancing.ns_per_property_frame", one.best, "ns", digits: 1)
    report("dancing.ns_per_property_frame_median", one.median, "ns", digits: 1)
    report("dancing.ns_per_property_frame_4_properties", four.best, "ns", digits: 1)
    report("dancing.baseline_direct_write_ns", direct.best, "ns", digits: 1)
    report("dancing.baseline_keypath_write_ns", keyPath.best, "ns", digits: 1)
    // What the animator adds to the unavoidable work: solving the curve and storing the value.
    report("dancing.overhead_beyond_direct_write_ns", one.best - direct.best, "ns", digits: 1)
    reportRatio("dancing.ratio_vs_direct_write", one.best / direct.best)
    reportRatio("dancing.ratio_vs_keypath_write", one.best / keyPath.best)
    // The floor of a frame that never retains its host and keeps its state per host behind a
    // lock: the direct write, with the host try-retained and released and its lock taken
    // around the step. What the animator adds beyond it is its own work.
    let floor = workloads[5]
    report("dancing.floor_ns", floor.best, "ns", digits: 1)
    reportRatio("dancing.floor_vs_direct_write", floor.best / direct.best)
    reportRatio("dancing.ratio_vs_floor", one.best / floor.best)
    // The same floor without the host's lock: what a frame could reach if every call that
    // touches a host's dancer ran in the host's isolation, as its frames do, so that nothing
    // else needed the lock. The lock's share, taken from the frame, estimates such a frame.
    let unlocked = workloads[6]
    report("dancing.floor_without_lock_ns", unlocked.best, "ns", digits: 1)
    reportRatio("dancing.floor_without_lock_vs_direct_write", unlocked.best / direct.best)
    report("dancing.lock_ns", floor.best - unlocked.best, "ns", digits: 1)
    reportRatio(
      "dancing.ratio_without_lock_estimate", (one.best - (floor.best - unlocked.best)) / direct.best
    )
    // A spring that took over a moving property adds the velocity it kept, through blends of
    // the property's values: the price of an interruption with no kink, paid only until the
    // spring settles.
    report("dancing.ns_per_retargeted_property_frame", workloads[4].best, "ns", digits: 1)
    // Two independent groups a host, one property each: the frame reads each host once and
    // takes its lock once for both. Made and measured after the others, so that its hosts take
    // no room in the caches those rounds share and their figures compare with earlier runs.
    // The one-group workload is measured again beside it, round for round, so that the ratio
    // compares two figures of the same minutes: the machine's speed swings between the two
    // series of rounds would otherwise move it by a third.
    var two = twoGroups()
    var oneBeside = workloads[0]
    oneBeside.samples = []
    for round in 0..<rounds {
      two.measure(round: round)
      oneBeside.measure(round: rounds + round)
    }
    report("dancing.ns_per_property_frame_two_groups", two.best, "ns", digits: 1)
    report("dancing.ns_per_host_frame_two_groups", two.best * 2, "ns", digits: 1)
    // The second group's cost per property against the first's, measured in the same rounds.
    reportRatio("dancing.two_groups_vs_one", two.best / oneBeside.best)
    report("dancing.idle_wakeups_per_s", idleWakeUpsPerSecond(), "/s", digits: 1)
    report("dancing.waiting_frames_peak", Double(waitingFramesPeak()), "frames", digits: 0)
    report("dancing.waiting_frames_bound", Double(waitingHosts), "frames", digits: 0)
  }

  /// The hosts of ``waitingFramesPeak()``.
  static let waitingHosts = 1_000

  /// The frames that waited at once for `waitingHosts` main-actor hosts, summed, while this
  /// thread held the main actor and another advanced their clock 600 frames: at most one a
  /// host, the newest.
  static func waitingFramesPeak() -> Int {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let layers = (0..<waitingHosts).map { _ in Layer() }
    let dances = layers.map { layer in
      let dance = Dance.of(layer, frames: clock)
      dance.animate(duration: 1_000, curve: .linear) { $0.x = 100 }.start()
      return dance
    }
    // This thread holds the main actor: every frame of a main-actor host waits for it.
    DispatchQueue.global().sync {
      for _ in 0..<600 { scheduler.advance(by: clock.interval) }
    }
    return withExtendedLifetime(layers) {
      dances.reduce(0) { $0 + $1.dancer.frameBacklog.peak }
    }
  }

  /// 10,000 animations on one frame source driven by virtual time, so that only the per-frame
  /// work is timed. The layers live as long as the animations: each dancer holds its host
  /// weakly, and the frame closure holds them.
  private static func animated(propertiesPerAnimation: Int) -> Workload {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let layers = (0..<animations).map { _ in Layer() }
    for (index, layer) in layers.enumerated() {
      Dance.of(layer, frames: clock).animate(duration: 1_000, curve: .easeInOut) {
        $0.x = Double(index)
        if propertiesPerAnimation > 1 {
          $0.y = 100
          $0.opacity = 0
          $0.scale = 2
        }
      }.start()
    }
    for _ in 0..<10 { scheduler.advance(by: clock.interval) }
    return Workload(operations: animations * propertiesPerAnimation) { _ in
      withExtendedLifetime(layers) { scheduler.advance(by: clock.interval) }
    }
  }

  /// 10,000 springs that each replaced a moving animation and keep its velocity. Fitted to a
  /// long duration, so that they run through every round.
  private static func retargeted() -> Workload {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let layers = (0..<animations).map { _ in Layer() }
    for (index, layer) in layers.enumerated() {
      Dance.of(layer, frames: clock).animate(duration: 1_000, curve: .linear) {
        $0.x = Double(index) * 1_000
      }.start()
    }
    for _ in 0..<10 { scheduler.advance(by: clock.interval) }
    for (index, layer) in layers.enumerated() {
      Dance.of(layer, frames: clock).animate(duration: 1_000, dampingRatio: 0.8) {
        $0.x = -Double(index)
      }.start()
    }
    return Workload(operations: animations) { _ in
      withExtendedLifetime(layers) { scheduler.advance(by: clock.interval) }
    }
  }

  /// 10,000 hosts with two independent groups each: a position on a curve and, declared after
  /// it, an opacity on another.
  private static func twoGroups() -> Workload {
    let scheduler = VirtualClock()
    let clock = FrameSource(clock: scheduler, framesPerSecond: 60)
    let layers = (0..<animations).map { _ in Layer() }
    for (index, layer) in layers.enumerated() {
      let dance = Dance.of(layer, frames: clock)
      dance.animate(duration: 1_000, curve: .easeInOut) { $0.x = Double(index) }.start()
      dance.animate(duration: 1_000, curve: .linear) { $0.opacity = 0 }.start()
    }
    for _ in 0..<10 { scheduler.advance(by: clock.interval) }
    return Workload(operations: animations * 2) { _ in
      withExtendedLifetime(layers) { scheduler.advance(by: clock.interval) }
    }
  }

  /// The same writes without the framework: solve the curve and store the value.
  private static func directWrites() -> Workload {
    let layers = (0..<animations).map { _ in Layer() }
    let curve = TimingCurve.easeInOut.bezier
    return Workload(operations: animations) { frame in
      let fraction = Double(frame + 10) / 60_000
      for (index, layer) in layers.enumerated() {
        layer.x = Double.interpolate(
          from: 0, to: Double(index), fraction: curve.value(at: fraction))
      }
    }
  }

  /// The direct writes with what no frame of a host it does not own can do without: the host
  /// read through an ``AnyWeakReference`` (a try-retain and a release) and the step solved
  /// under the host's own lock, allocated beside it. The loop reads plain words (pinned
  /// addresses, unretained locks), as the animator's frame loop does, so that it pays no
  /// reference counting of its own.
  ///
  /// Nonisolated, as the library's frame loop is: a closure made in main-actor code checks
  /// its executor each time it is called, and the two closures a host here would pay two
  /// checks (about 30 ns) that the animator does not.
  private nonisolated static func heldWrites() -> Workload {
    var layers: [Layer] = []
    var locks: [LockedState<Double>] = []
    for _ in 0..<animations {
      layers.append(Layer())
      locks.append(LockedState(0))
    }
    let references = layers.map { AnyWeakReference($0) }
    // As bit patterns, which a frame closure may hold.
    let addresses = references.map { UInt(bitPattern: $0.pinnedAddress) }
    let unretained = locks.map { Unmanaged.passUnretained($0) }
    let curve = TimingCurve.easeInOut.bezier
    return Workload(operations: animations) { frame in
      let fraction = Double(frame + 10) / 60_000
      withExtendedLifetime((layers, locks, references)) {
        for index in 0..<animations {
          let eased = unretained[index]._withUnsafeGuaranteedRef { lock in
            lock.withLock { value -> Double in
              value = curve.value(at: fraction)
              return value
            }
          }
          guard let address = UnsafeMutableRawPointer(bitPattern: addresses[index]),
            let host = AnyWeakReference.object(pinnedAt: address)
          else { continue }
          unsafeDowncast(host, to: Layer.self).x = Double.interpolate(
            from: 0, to: Double(index), fraction: eased)
        }
      }
    }
  }

  /// ``heldWrites()`` without the lock: the host read through an ``AnyWeakReference`` and the
  /// step kept in a plain word beside it, as a frame that needed no lock would keep it.
  private nonisolated static func weakWrites() -> Workload {
    let layers = (0..<animations).map { _ in Layer() }
    let references = layers.map { AnyWeakReference($0) }
    let addresses = references.map { UInt(bitPattern: $0.pinnedAddress) }
    let steps = UnsafeMutableBufferPointer<Double>.allocate(capacity: animations)
    steps.initialize(repeating: 0)
    // As a bit pattern, which a frame closure may hold; never freed: the benchmark's process
    // ends with its figures.
    let stepsAddress = UInt(bitPattern: steps.baseAddress)
    let curve = TimingCurve.easeInOut.bezier
    return Workload(operations: animations) { frame in
      let fraction = Double(frame + 10) / 60_000
      // swift-format-ignore: NeverForceUnwrap
      let steps = UnsafeMutablePointer<Double>(bitPattern: stepsAddress)!
      withExtendedLifetime((layers, references)) {
        for index in 0..<animations {
          steps[index] = curve.value(at: fraction)
          guard let address = UnsafeMutableRawPointer(bitPattern: addresses[index]),
            let host = AnyWeakReference.object(pinnedAt: address)
          else { continue }
          unsafeDowncast(host, to: Layer.self).x = Double.interpolate(
            from: 0, to: Double(index), fraction: steps[index])
        }
      }
    }
  }

  /// The same writes through a key path known only at run time, as an animator that keeps
  /// key paths makes them.
  private static func keyPathWrites() -> Workload {
    let layers = (0..<animations).map { _ in Layer() }
    let keyPath = opaque(\Layer.x)
    let curve = TimingCurve.easeInOut.bezier
    return Workload(operations: animations) { frame in
      let fraction = Double(frame + 10) / 60_000
      for (index, layer) in layers.enumerated() {
        layer[keyPath: keyPath] = Double.interpolate(
          from: 0, to: Double(index), fraction: curve.value(at: fraction))
      }
    }
  }

  // Hides the key path from the optimizer, which would otherwise turn a literal into a direct
  // store; an animation's key paths arrive at run time.
  @inline(never)
  private static func opaque<Root, Value>(
    _ keyPath: any ReferenceWritableKeyPath<Root, Value> & Sendable
  ) -> any ReferenceWritableKeyPath<Root, Value> & Sendable {
    keyPath
  }

  /// A real Dispatch clock after its only animation has ended, watched for about a second.
  /// The layer belongs to an actor of its own, where its frames run: this thread only waits.
  nonisolated static func idleWakeUpsPerSecond() -> Double {
    let queue = DispatchQueue(label: "affix-bench.dancing")
    let clock = FrameSource(clock: DispatchClock(queue: queue), framesPerSecond: 60)
    let owner = LayerOwner()
    let ended = DispatchSemaphore(value: 0)
    Task { await owner.animate(on: clock) { ended.signal() } }
    ended.wait()
    queue.sync { _ = 0 }  // lets the frame that ran the completion finish
    let before = clock.wakeUps
    let start = ContinuousClock.now
    Thread.sleep(forTimeInterval: 1)
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    withExtendedLifetime(owner) {}
    return Double(clock.wakeUps - before) / seconds
  }

  /// The owner of the layer whose clock ``idleWakeUpsPerSecond()`` watches.
  private actor LayerOwner {
    private let layer = Layer()

    func animate(on clock: FrameSource, then ended: @escaping @Sendable () -> Void) {
      Dance.of(layer, frames: clock).animate(duration: 0.1) { $0.x = 1 }
        .addCompletion { _ in ended() }.start()
    }
  }

}
