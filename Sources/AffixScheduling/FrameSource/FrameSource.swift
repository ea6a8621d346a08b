public import Affix

/// One repeating timer shared by any number of subscribers; it runs only while it has
/// subscribers.
///
/// Animations and drags subscribe to a frame source instead of creating timers of their own:
/// ten thousand subscribers cost one timer wake-up a frame, not ten thousand, and an idle source
/// costs nothing. The timer is created on the first subscription and cancelled when the last
/// one goes away, so a source with no subscribers never wakes up.
///
/// Each subscription lives as long as its token: cancelling or dropping the token stops its
/// frames, so a dead subscriber never keeps ticking.
///
/// ```swift
/// let frames = FrameSource(clock: DispatchClock.main, framesPerSecond: 60)
/// let subscription = frames.subscribe { frame in
///   print("frame \(frame.index) at \(frame.timestamp), \(frame.delta) since the last")
/// }
/// // later: no more frames, and the source stops if that was the last subscriber
/// subscription.cancel()
/// ```
public final class FrameSource: Sendable {
  /// The clock whose repeating timer drives the frames; subscribers run on its context.
  public let clock: any SchedulingClock

  /// The time between frames. For ``shared`` on Apple platforms, which follows the display,
  /// the interval of the rate it asks the display for: a display may refresh less often, and
  /// each ``Frame/delta`` says what it did.
  public let interval: Duration

  private let state = LockedState(State())

  /// What fires the frames: the clock's repeating timer, or the display.
  private let firing: Firing

  private enum Firing {
    case clock
    case display(framesPerSecond: Int)
  }

  /// Creates a frame source that ticks `framesPerSecond` times a second on `clock` while it has
  /// subscribers.
  ///
  /// - Parameters:
  ///   - clock: The clock that runs the source's timer and, with it, every subscriber.
  ///   - framesPerSecond: The frame rate, from 1 to ``maximumFramesPerSecond``, so that the
  ///     ``interval`` lies between 1 ms and 1 s. A rate of zero or less falls back to 60, a
  ///     rate above the maximum is lowered to it, and either is reported through `Diagnostics`
  ///     (subsystem `"scheduling"`).
  ///   - fileID: The caller's file, for that report.
  ///   - line: The caller's line, for that report.
  public convenience init(
    clock: any SchedulingClock, framesPerSecond: Int = 60, fileID: String = #fileID,
    line: Int = #line
  ) {
    self.init(
      clock: clock, framesPerSecond: framesPerSecond, followsTheDisplay: false,
      fileID: fileID, line: line)
  }

  /// A frame source whose frames come from the display when `followsTheDisplay` is true and the
  /// platform has one (see `DisplayLink`), on the main queue; stamped with `clock`'s time.
  private init(
    clock: any SchedulingClock, framesPerSecond: Int, followsTheDisplay: Bool, fileID: String,
    line: Int
  ) {
    self.clock = clock
    var rate = framesPerSecond
    if rate <= 0 {
      rate = Self.defaultFramesPerSecond
      Diagnostics.report(
        subsystem: "scheduling",
        message:
          "A frame source needs a positive frame rate, but was given \(framesPerSecond); it runs at "
          + "\(rate) frames a second instead.", fileID: fileID, line: line)
    } else if rate > Self.maximumFramesPerSecond {
      rate = Self.maximumFramesPerSecond
      Diagnostics.report(
        subsystem: "scheduling",
        message:
          "A frame source cannot run at \(framesPerSecond) frames a second; it runs at \(rate), "
          + "a frame every millisecond.", fileID: fileID, line: line)
    }
    interval = .seconds(1) / rate
    firing = followsTheDisplay ? .display(framesPerSecond: rate) : .clock
  }

  /// The frame source of the main queue, which follows the display on Apple platforms.
  ///
  /// On Apple platforms it ticks at up to 120 frames a second (as many as the display
  /// refreshes, each in step with a refresh); elsewhere a Dispatch timer ticks 60 times a
  /// second. Frames are stamped with ``DispatchClock/main``'s time either way.
  public static let shared =
    DisplayLink.followsTheDisplay
    ? displayLinked(framesPerSecond: 120)
    : FrameSource(clock: DispatchClock.main)

  /// A frame source on the main queue whose frames come from `DisplayLink`: the display's link on Apple
  /// platforms, its twin (a Dispatch timer on the main queue) elsewhere, so that tests run the
  /// same logic here.
  package static func displayLinked(framesPerSecond: Int) -> FrameSource {
    FrameSource(
      clock: DispatchClock.main, framesPerSecond: framesPerSecond,
      followsTheDisplay: true, fileID: #fileID, line: #line)
  }

  static let defaultFramesPerSecond = 60

  /// The fastest a frame source runs: 1,000 frames a second, a frame every millisecond.
  ///
  /// Displays refresh at most a few hundred times a second, so no frame beyond this is ever
  /// seen; a faster source would only keep its queue busy (at a billion frames a second, every
  /// moment of it), and an interval that rounds to zero would stop it from ticking at all.
  public static let maximumFramesPerSecond = 1000

  /// Calls `onFrame` at every frame while the returned token lives and is not cancelled.
  ///
  /// Subscribers are called in the order they subscribed, on the clock's context. A
  /// subscriber may cancel its own or another subscription, or subscribe others, from inside
  /// its callback; a subscription cancelled before its turn in a frame is not called.
  ///
  /// - Returns: The subscription's token: cancel or drop it to stop the frames.
  public func subscribe(_ onFrame: @escaping @Sendable (Frame) -> Void) -> CancellationToken {
    let subscriber = Subscriber(onFrame: onFrame)
    let (id, generation, oldSnapshot) = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.subscribers[id] = subscriber
      return (id, state.startIfStopped(), state.invalidateSnapshot())
    }
    withExtendedLifetime(oldSnapshot) {}
    if let generation { startTimer(generation: generation) }
    return CancellationToken { [weak self] in
      subscriber.isActive.store(false, ordering: .releasing)
      self?.unsubscribe(id)
    }
  }

  /// The number of live subscriptions.
  package var subscriberCount: Int {
    state.withLock { $0.subscribers.count }
  }

  /// Whether the underlying timer exists: true only while the source has subscribers.
  package var isRunning: Bool {
    state.withLock { state in
      if case .running = state.timer { return true }
      return false
    }
  }

  /// The number of times the timer has fired since the source was created, over all runs.
  package var wakeUps: Int {
    state.withLock { $0.wakeUps }
  }

  // The timer is created and cancelled outside the lock, since the clock may be user code;
  // a generation number tells a timer that is still wanted from one that lost a race with the
  // last unsubscription.
  private func startTimer(generation: UInt64) {
    let timer: CancellationToken
    do {
      let tick: @Sendable () -> Void = { [weak self] in self?.tick(generation: generation) }
      switch firing {
      case .clock:
        timer = try clock.scheduleRepeating(every: interval, tick)
      case .display(let framesPerSecond):
        timer = DisplayLink.start(framesPerSecond: framesPerSecond, tick)
      }
    } catch {
      // Unreachable: `interval` is positive by construction.
      state.withLock { state in
        if case .starting(generation) = state.timer { state.timer = .stopped }
      }
      return
    }
    let unwanted = state.withLock { state -> CancellationToken? in
      guard case .starting(generation) = state.timer else { return timer }
      state.timer = .running(generation: generation, token: timer)
      return nil
    }
    unwanted?.cancel()
  }

  private func unsubscribe(_ id: UInt64) {
    let (removed, oldSnapshot, timer) = state.withLock { state in
      let removed = state.subscribers.removeValue(forKey: id)
      guard removed != nil else {
        return (removed, nil as [Subscriber]?, nil as CancellationToken?)
      }
      return (removed, state.invalidateSnapshot(), state.subscribers.isEmpty ? state.stop() : nil)
    }
    timer?.cancel()
    withExtendedLifetime((removed, oldSnapshot)) {}
  }

  private func tick(generation: UInt64) {
    let timestamp = clock.now
    let delivery = state.withLock { state -> (Frame, [Subscriber])? in
      switch state.timer {
      case .starting(generation), .running(generation, _): break
      default: return nil
      }
      state.wakeUps += 1
      let delta = state.lastTimestamp.map { timestamp - $0 } ?? interval
      let frame = Frame(index: state.frameIndex, timestamp: timestamp, delta: delta)
      state.frameIndex += 1
      state.lastTimestamp = timestamp
      return (frame, state.currentSnapshot())
    }
    guard let (frame, subscribers) = delivery else { return }
    // The snapshot holds every subscriber until the loop ends, so the loop touches no
    // reference count: retaining each subscriber and its closure around each call was four
    // atomic operations per subscriber, most of a frame's fan-out.
    subscribers.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { subscriber in
          if subscriber.isActive.load(ordering: .acquiring) { subscriber.onFrame(frame) }
        }
      }
    }
  }
}
