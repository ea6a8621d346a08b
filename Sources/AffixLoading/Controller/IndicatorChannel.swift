import Affix

/// A controller's indicator with the isolation it is called in.
///
/// An indicator that lives on an actor (a main-actor view's) is kept in an `IsolationBound`
/// and reached only by calls that run there; a `Sendable` one, of a controller with no host,
/// is called on the clock's context.
final class IndicatorChannel: Sendable {
  /// Read once, in the isolation the indicator lives in.
  let wantsTicks: Bool

  /// One callback for every call, so that the indicator receives them in the order they were
  /// made.
  private let calls: IsolatedCallback<IndicatorCall>

  /// The channel of `indicator`, which lives in the caller's isolation.
  init(indicator: any LoadingIndicator, isolation: isolated (any Actor)?) {
    wantsTicks = indicator.wantsTicks
    let bound = IsolationBound(indicator)
    calls = IsolatedCallback(on: bound.isolation) { isolation, call in
      // Read out of the bound first: `appear` and `disappear` may call back into the
      // controller, and no access to the indicator is held while they run.
      if let indicator = bound.value(isolation: isolation) { call.body(indicator) }
    }
  }

  /// The channel of an indicator made outside any actor, which has nowhere to be called: it is
  /// dropped here, and the controller's calls go nowhere.
  init(refusing indicator: consuming any LoadingIndicator) {
    wantsTicks = false
    _ = consume indicator
    calls = IsolatedCallback(on: nil) { _ in }
  }

  /// The channel of a `Sendable` indicator, called wherever the controller calls it.
  init(sendable indicator: any LoadingIndicator & Sendable) {
    wantsTicks = indicator.wantsTicks
    calls = IsolatedCallback(on: nil) { call in call.body(indicator) }
  }

  /// Hands the indicator a call that changes what it shows (appearing, disappearing), in order
  /// with the others.
  func call(_ body: @escaping @Sendable (any LoadingIndicator) -> Void) {
    pending.withLock { $0.made &+= 1 }
    calls(IndicatorCall(body: body))
  }

  /// The update calls on their way, by number, with what each will hand over; and how many
  /// calls were made, so that an update can tell whether the last call made is one of them.
  private let pending = LockedState(Pending())

  private struct Pending {
    var made: UInt64 = 0
    var updates: [UInt64: IndicatorUpdate] = [:]
  }

  /// Hands the indicator `update`, in order with the other calls. While the last call made is
  /// an update still on its way (its isolation busy), `update` joins it, the newest message,
  /// progress and tick of each winning, rather than queue behind it: an indicator kept busy is
  /// handed one update when it is free, however many it missed, and never one that overtakes
  /// a call made after it. Update calls waiting at once are at most one more than the other
  /// calls waiting.
  func send(_ update: IndicatorUpdate) {
    let number = pending.withLock { pending -> UInt64? in
      if pending.updates[pending.made] != nil {
        pending.updates[pending.made]?.merge(update)
        return nil
      }
      pending.made &+= 1
      pending.updates[pending.made] = update
      return pending.made
    }
    guard let number else { return }
    calls(
      IndicatorCall { [pending] indicator in
        pending.withLock { $0.updates.removeValue(forKey: number) }?.deliver(to: indicator)
      })
  }

  /// How many calls wait for the indicator's isolation now, and the most that ever did.
  var backlog: Backlog { calls.backlog }

  /// Returns once the calls made so far have run.
  func delivered() async {
    await calls.delivered()
  }
}

/// What one update call hands an indicator: for each kind, nothing or its newest value.
struct IndicatorUpdate: Sendable {
  /// A message to show (`.some(nil)`: none).
  var message: String?? = nil
  /// A fraction to show (`.some(nil)`: indeterminate).
  var progress: Double?? = nil
  var tick: (frame: Int, angle: Double)? = nil

  /// Takes `newer`'s values over these, kind by kind.
  mutating func merge(_ newer: IndicatorUpdate) {
    if let message = newer.message { self.message = message }
    if let progress = newer.progress { self.progress = progress }
    if let tick = newer.tick { self.tick = tick }
  }

  /// Calls the indicator for each kind it carries: the message, the progress, then the tick.
  func deliver(to indicator: any LoadingIndicator) {
    if let message { indicator.update(message: message) }
    if let progress { indicator.update(progress: progress) }
    if let tick { indicator.tick(frame: tick.frame, angle: tick.angle) }
  }
}

/// One call of the indicator, carried to its isolation, where ``IndicatorChannel`` hands it the
/// indicator.
private struct IndicatorCall: Sendable {
  let body: @Sendable (any LoadingIndicator) -> Void
}
