import Affix
import Observation

// How the dancer tells Swift Observation of its changes.
extension Dancer {
  /// What a change of the dancer may change, as Observation is told of it.
  struct ObservedAspects: OptionSet {
    let rawValue: UInt8

    /// What runs and in which state: ``observedSchedule``.
    static let schedule = ObservedAspects(rawValue: 1)
    /// How far the animations are: ``observedProgress``.
    static let progress = ObservedAspects(rawValue: 2)
    static let all: ObservedAspects = [.schedule, .progress]
  }

  /// Stands, for Observation, for what runs and in which state: the groups, their tags, states
  /// and directions. Its getter reads nothing; the key path names the state.
  var observedSchedule: Void { () }

  /// Stands, for Observation, for how far the animations are: told every frame, apart from
  /// ``observedSchedule`` so that a tracker of the state sleeps through frames.
  var observedProgress: Void { () }

  /// Registers a tracked read of `aspect`; call it in the getters of ``Dance``.
  func access(_ aspect: ObservedAspects) {
    if aspect.contains(.schedule) { observation.access(self, keyPath: \.observedSchedule) }
    if aspect.contains(.progress) { observation.access(self, keyPath: \.observedProgress) }
    // After the registrar's flag: a frame that finds this one set finds the registrar's set.
    state.withLock { state in
      if !state.isObserved { state.isObserved = true }
    }
  }

  /// Runs `change` between Observation's `willSet` and `didSet` of `aspects`, once anything has
  /// read. Call it outside every lock: the trackers' `onChange` runs in `willSet`.
  func changing<Result>(_ aspects: ObservedAspects, _ change: () throws -> Result) rethrows
    -> Result
  {
    guard observation.hasBeenRead else { return try change() }
    willSet(aspects)
    defer { didSet(aspects) }
    return try change()
  }

  /// Tells Observation that `aspects` changed, after the change, once anything has read: for
  /// changes only known once made, as a frame's. Outside every lock.
  func announce(_ aspects: ObservedAspects) {
    guard observation.hasBeenRead else { return }
    willSet(aspects)
    didSet(aspects)
  }

  private func willSet(_ aspects: ObservedAspects) {
    if aspects.contains(.schedule) { observation.willSet(self, keyPath: \.observedSchedule) }
    if aspects.contains(.progress) { observation.willSet(self, keyPath: \.observedProgress) }
  }

  private func didSet(_ aspects: ObservedAspects) {
    if aspects.contains(.progress) { observation.didSet(self, keyPath: \.observedProgress) }
    if aspects.contains(.schedule) { observation.didSet(self, keyPath: \.observedSchedule) }
  }
}
