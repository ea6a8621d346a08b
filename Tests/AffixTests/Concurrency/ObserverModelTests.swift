import Affix
import AffixTestSupport
import Synchronization
import Testing

/// Seeded random sequences of writes, updates and removals under an observed key, observers
/// started and cancelled, capabilities attached and removed, host deaths and sweeps, checked
/// against a model of whom they call: every observer call and every capability ending must
/// agree, in order. ``ModelBasedTests`` checks the values themselves the same way.
@Suite struct ObserverModelTests {
  @Test func observersAndCapabilitiesAgreeWithAReferenceModel() {
    for seed in UInt64(1)...UInt64(scaled(60)) {
      if let failure = Self.firstFailure(seed: seed, steps: 400) {
        Issue.record(Comment(rawValue: failure))
        return
      }
    }
  }

  /// The calls the model expects: per host, its count, whether it is observed and whether its
  /// capability is attached; what the observers and capabilities were called with, in order.
  private struct Model {
    var counts: [Int: Int] = [:]
    var observed: Set<Int> = []
    var attached: Set<Int> = []
    var dead: Set<Int> = []
    var calls: [String] = []
    var endings: [String] = []

    /// An observer is called with each count stored, even the same again, and with the
    /// default 0 when a count is removed; a removal of no count calls nobody.
    mutating func store(_ count: Int?, of host: Int) {
      let old = counts.updateValue(count ?? 0, forKey: host)
      if count == nil { counts[host] = nil }
      guard observed.contains(host), count != nil || old != nil else { return }
      calls.append("host \(host): count \(count ?? 0)")
    }

    /// A removed capability ends as removed; a dead host's ends as it is swept.
    mutating func setAttached(_ attached: Bool, _ host: Int) {
      if !attached, self.attached.contains(host) { endings.append("host \(host): removed") }
      if attached { self.attached.insert(host) } else { self.attached.remove(host) }
    }

    mutating func sweep() {
      for host in dead.sorted() where attached.remove(host) != nil {
        endings.append("host \(host): host died")
      }
      dead = []
    }
  }

  /// The first disagreement of `steps` random steps from `seed`, with the seed and step, or nil.
  static func firstFailure(seed: UInt64, steps: Int) -> String? {
    var random = SplitMix64(seed: seed)
    var model = Model()
    let engine = Engine()
    var alive: [Int] = []
    var nextHost = 0
    for step in 0..<steps {
      if alive.count < 2 || Int.random(in: 0..<10, using: &random) == 0 {
        engine.addHost(nextHost)
        alive.append(nextHost)
        nextHost += 1
      }
      let host = alive[Int.random(in: 0..<alive.count, using: &random)]
      switch Int.random(in: 0..<8, using: &random) {
      case 0:
        let count = Int.random(in: 0..<3, using: &random)
        model.store(count, of: host)
        engine.store(count, of: host)
      case 1:
        // An update that changes the count: stored and observed.
        model.store((model.counts[host] ?? 0) + 1, of: host)
        engine.increment(host)
      case 2:
        // An `Equatable` update that leaves the count as it was: nothing is written.
        engine.leaveAlone(host)
      case 3:
        model.store(nil, of: host)
        engine.store(nil, of: host)
      case 4:
        let observing = !model.observed.contains(host)
        if observing { model.observed.insert(host) } else { model.observed.remove(host) }
        engine.setObserving(observing, host)
      case 5:
        let attached = !model.attached.contains(host)
        model.setAttached(attached, host)
        engine.setAttached(attached, host)
      case 6:
        // Its observer is cancelled first: what a dying host's observer sees is not modelled.
        model.observed.remove(host)
        engine.setObserving(false, host)
        model.dead.insert(host)
        engine.kill(host)
        alive.removeAll { $0 == host }
      default:
        model.sweep()
        AssociationTable.sweep()
        // Across hosts, a sweep ends capabilities in no promised order. On the weak path a
        // host whose last owner let go while another thread's sweep loaded its weak reference
        // dies on that thread, an instant later, and its capabilities end at the sweep after
        // (see `isDeallocated`): there the check sweeps until they agree, within a deadline.
        let agree = { model.endings.sorted() == engine.endings.sorted() }
        if !agree(), HostKind.everyHostIsWeak {
          _ = blockingEventually {
            _ = AssociationTable.sweep()
            return agree()
          }
        }
        if !agree() {
          return "seed \(seed), step \(step): the capabilities' endings: the model has "
            + "\(model.endings), the engine \(engine.endings)"
        }
      }
      if model.calls != engine.calls {
        return "seed \(seed), step \(step): the observers' calls: the model has \(model.calls), "
          + "the engine \(engine.calls)"
      }
    }
    return nil
  }
}

/// The engine, driven as the model is: hosts by number, their counts under an observed key.
private final class Engine {
  private enum Count: AssociatedKey {
    static let defaultValue = 0
  }

  private final class Ending: Capability {
    let host: Int
    let log: Log

    init(host: Int, log: Log) {
      self.host = host
      self.log = log
    }

    func didEnd(_ ending: CapabilityEnding) { log.add("host \(host): \(ending)") }
  }

  /// What the observers and capabilities were called with, in order.
  private final class Log: Sendable {
    private let entries = Mutex<[String]>([])

    func add(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
  }

  private var hosts: [Int: Host] = [:]
  private var tokens: [Int: CancellationToken] = [:]
  private let callLog = Log()
  private let endingLog = Log()

  var calls: [String] { callLog.all }
  var endings: [String] { endingLog.all }

  func addHost(_ host: Int) { hosts[host] = Host() }

  func kill(_ host: Int) { hosts[host] = nil }

  private func associations(_ host: Int) -> Associations<Host>? {
    hosts[host].map { Associations(of: $0) }
  }

  func store(_ count: Int?, of host: Int) {
    if let count {
      associations(host)?[Count.self] = count
    } else {
      associations(host)?.removeValue(for: Count.self)
    }
  }

  func increment(_ host: Int) { associations(host)?.update(Count.self) { $0 += 1 } }

  func leaveAlone(_ host: Int) { associations(host)?.update(Count.self) { $0 = $0 } }

  func setObserving(_ observing: Bool, _ host: Int) {
    guard observing else {
      _ = tokens.removeValue(forKey: host)?.cancel()
      return
    }
    tokens[host] = associations(host)?.observe(
      Count.self, nonisolated: { [callLog] count in callLog.add("host \(host): count \(count)") })
  }

  func setAttached(_ attached: Bool, _ host: Int) {
    if attached {
      associations(host)?.attach(Ending(host: host, log: endingLog))
    } else {
      associations(host)?.removeCapability(Ending.self)
    }
  }
}
