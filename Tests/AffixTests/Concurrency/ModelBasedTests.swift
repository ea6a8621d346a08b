import Affix
import Synchronization
import Testing

/// Random operations on the real storage, each checked against a dictionary per host.
@Suite struct ModelBasedTests {
  enum ModelValue: Equatable, CustomStringConvertible {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case text(String)
    case list([Int])
    case object(Int)
    case weak(Int)

    var description: String {
      switch self {
      case .int(let value): "int \(value)"
      case .bool(let value): "bool \(value)"
      case .double(let value): "double \(value)"
      case .text(let value): "text \(value.prefix(12))"
      case .list(let value): "list \(value)"
      case .object(let id): "object #\(id)"
      case .weak(let id): "weak #\(id)"
      }
    }
  }

  /// Eight keys covering every representation; `object` and `twin` share a name and a type.
  struct Keys {
    let int = AssociatedKey<Int>("int")
    let bool = AssociatedKey<Bool>("bool")
    let double = AssociatedKey<Double>("double")
    let text = AssociatedKey<String>("text")
    let list = AssociatedKey<[Int]>("list")
    let object = AssociatedKey<Tracked>("object")
    let twin = AssociatedKey<Tracked>("object")
    let weak = AssociatedKey<Tracked>.weak("weak")

    static let count = 8

    func read(_ key: Int, of host: Host) -> ModelValue? {
      let view = Associations(of: host)
      switch key {
      case 0: return view[int].map(ModelValue.int)
      case 1: return view[bool].map(ModelValue.bool)
      case 2: return view[double].map(ModelValue.double)
      case 3: return view[text].map(ModelValue.text)
      case 4: return view[list].map(ModelValue.list)
      case 5: return view[object].map { .object($0.id) }
      case 6: return view[twin].map { .object($0.id) }
      default: return view[weak].map { .weak($0.id) }
      }
    }

    func remove(_ key: Int, of host: Host) -> ModelValue? {
      let view = Associations(of: host)
      switch key {
      case 0: return view.removeValue(for: int).map(ModelValue.int)
      case 1: return view.removeValue(for: bool).map(ModelValue.bool)
      case 2: return view.removeValue(for: double).map(ModelValue.double)
      case 3: return view.removeValue(for: text).map(ModelValue.text)
      case 4: return view.removeValue(for: list).map(ModelValue.list)
      case 5: return view.removeValue(for: object).map { .object($0.id) }
      case 6: return view.removeValue(for: twin).map { .object($0.id) }
      default: return view.removeValue(for: weak).map { .weak($0.id) }
      }
    }

    /// Writes `value` (nil removes) under `key`; `objects` resolves object and weak ids.
    func write(_ value: ModelValue?, _ key: Int, of host: Host, objects: [Int: Tracked]) {
      let view = Associations(of: host)
      switch (key, value) {
      case (0, .int(let number)): view[int] = number
      case (1, .bool(let flag)): view[bool] = flag
      case (2, .double(let number)): view[double] = number
      case (3, .text(let string)): view[text] = string
      case (4, .list(let numbers)): view[list] = numbers
      case (5, .object(let id)): view[object] = objects[id]
      case (6, .object(let id)): view[twin] = objects[id]
      case (7, .weak(let id)): view[weak] = objects[id]
      case (0, nil): view[int] = nil
      case (1, nil): view[bool] = nil
      case (2, nil): view[double] = nil
      case (3, nil): view[text] = nil
      case (4, nil): view[list] = nil
      case (5, nil): view[object] = nil
      case (6, nil): view[twin] = nil
      case (7, nil): view[weak] = nil
      default: Issue.record("no write of \(String(describing: value)) under key \(key)")
      }
    }

    func getOrCreate(_ key: Int, of host: Host, making value: ModelValue, objects: [Int: Tracked])
      -> ModelValue
    {
      let view = Associations(of: host)
      switch (key, value) {
      case (0, .int(let number)): return .int(view.value(for: int) { number })
      case (1, .bool(let flag)): return .bool(view.value(for: bool) { flag })
      case (2, .double(let number)): return .double(view.value(for: double) { number })
      case (3, .text(let string)): return .text(view.value(for: text) { string })
      case (4, .list(let numbers)): return .list(view.value(for: list) { numbers })
      // The ids come from `objects`, which holds every object the model can name.
      case (5, .object(let id)): return .object(view.value(for: object) { objects[id]! }.id)
      case (6, .object(let id)): return .object(view.value(for: twin) { objects[id]! }.id)
      case (7, .weak(let id)): return .weak(view.value(for: weak) { objects[id]! }.id)
      default:
        Issue.record("no get-or-create of \(value) under key \(key)")
        return value
      }
    }

    func listed(on host: Host) -> Set<Int> {
      let listed = Associations(of: host).keys
      let described: [(Int, AnyAssociatedKey) -> Bool] = [
        { $1.describes(int) }, { $1.describes(bool) }, { $1.describes(double) },
        { $1.describes(text) }, { $1.describes(list) }, { $1.describes(object) },
        { $1.describes(twin) }, { $1.describes(weak) },
      ]
      return Set(
        listed.compactMap { entry in (0..<Self.count).first { described[$0]($0, entry) } })
    }
  }

  /// The model and the real objects it names.
  struct World {
    var rng: SplitMix64
    let keys = Keys()
    var hosts: [Host?]
    var model: [[Int: ModelValue]]
    /// Strong values alive in the real storage, by id, as their deinit reports.
    let liveIDs = IDSet()
    /// Weak targets, held only here: dropping one kills it.
    var weakTargets: [Int: Tracked] = [:]
    var nextID = 1

    init(seed: UInt64, hostCount: Int) {
      rng = SplitMix64(seed: seed)
      hosts = Array(repeating: nil, count: hostCount)
      model = Array(repeating: [:], count: hostCount)
      for _ in 0..<8 { addWeakTarget() }
    }

    mutating func random(_ bound: Int) -> Int {
      Int(rng.next() % UInt64(bound))
    }

    mutating func addWeakTarget() {
      let id = -nextID
      nextID += 1
      weakTargets[id] = Tracked(id)
    }

    /// A new value for `key`, and the object it names if any.
    mutating func makeValue(for key: Int) -> (ModelValue, Tracked?) {
      let number = random(1_000_000) - 500_000
      switch key {
      case 0: return (.int(number), nil)
      case 1: return (.bool(number.isMultiple(of: 2)), nil)
      case 2: return (.double(Double(number) / 8), nil)
      case 3: return (.text(String(repeating: "t\(number)", count: 1 + random(4))), nil)
      case 4: return (.list(Array(0..<random(4)).map { $0 + number }), nil)
      case 5, 6:
        let id = nextID
        nextID += 1
        let liveIDs = self.liveIDs
        liveIDs.insert(id)
        return (.object(id), Tracked(id) { liveIDs.remove(id) })
      default:
        // A known id: the weak targets' keys are drawn from those alive.
        let ids = weakTargets.keys.sorted()
        let id = ids[random(ids.count)]
        return (.weak(id), weakTargets[id])
      }
    }

    /// What the model says a read returns: a weak value whose target died reads nil.
    func expected(_ slot: Int, _ key: Int) -> ModelValue? {
      guard let value = model[slot][key] else { return nil }
      if case .weak(let id) = value, weakTargets[id] == nil { return nil }
      return value
    }

    var referencedIDs: Set<Int> {
      var ids = Set<Int>()
      for entries in model {
        for value in entries.values {
          if case .object(let id) = value { ids.insert(id) }
        }
      }
      return ids
    }

    mutating func host(_ slot: Int) -> Host {
      if let host = hosts[slot] { return host }
      let host = Host()
      hosts[slot] = host
      return host
    }

    /// Runs one random step; returns a description of the first disagreement, if any.
    mutating func step() -> String? {
      let slot = random(hosts.count)
      let key = random(Keys.count)
      let choice = random(100)
      switch choice {
      case 0..<30:
        let (value, object) = makeValue(for: key)
        keys.write(value, key, of: host(slot), objects: object.map { [value.id: $0] } ?? [:])
        model[slot][key] = value
      case 30..<34:
        keys.write(nil, key, of: host(slot), objects: [:])
        model[slot][key] = nil
      case 34..<58:
        let expected = expected(slot, key)
        let actual = keys.read(key, of: host(slot))
        if actual != expected {
          return "read \(key) of host \(slot): \(d(actual)) != \(d(expected))"
        }
      case 58..<68:
        let expected = expected(slot, key)
        let actual = keys.remove(key, of: host(slot))
        model[slot][key] = nil
        if actual != expected {
          return "remove \(key) of host \(slot): \(d(actual)) != \(d(expected))"
        }
      case 68..<80:
        let (value, object) = makeValue(for: key)
        let expected = expected(slot, key) ?? value
        let actual = keys.getOrCreate(
          key, of: host(slot), making: value, objects: object.map { [value.id: $0] } ?? [:])
        model[slot][key] = expected
        if actual != expected {
          return "get-or-create \(key) of host \(slot): \(actual) != \(expected)"
        }
      case 80..<85:
        hosts[slot] = nil
        model[slot] = [:]
      case 85..<88:
        guard let host = hosts[slot] else { break }
        let listed = keys.listed(on: host)
        let strong = Set(model[slot].keys.filter { $0 != 7 })
        let weakAlive = expected(slot, 7) != nil
        if listed.subtracting([7]) != strong || (weakAlive && !listed.contains(7)) {
          return "keys of host \(slot): \(listed.sorted()) != \(model[slot].keys.sorted())"
        }
      case 88..<91:
        let ids = weakTargets.keys.sorted()
        weakTargets[ids[random(ids.count)]] = nil
        addWeakTarget()
      case 91:
        return checkSweep()
      default:
        guard let host = hosts[slot] else { break }
        for key in 0..<Keys.count where keys.read(key, of: host) != expected(slot, key) {
          return "full read \(key) of host \(slot)"
        }
      }
      return nil
    }

    /// After a sweep, exactly the objects the model still names are alive.
    func checkSweep() -> String? {
      let referenced = referencedIDs
      _ = sweepUntil { liveIDs.values == referenced }
      let live = liveIDs.values
      guard live == referenced else {
        return "after sweep: alive but unreferenced \(live.subtracting(referenced).sorted()), "
          + "referenced but released \(referenced.subtracting(live).sorted())"
      }
      return nil
    }

    /// Nothing the model names was released early.
    func checkNothingReleasedEarly() -> String? {
      let live = liveIDs.values
      let missing = referencedIDs.subtracting(live)
      return missing.isEmpty ? nil : "released while referenced: \(missing.sorted())"
    }

    private func d(_ value: ModelValue?) -> String {
      value.map(\.description) ?? "nil"
    }
  }

  @Test func randomOperationsAgreeWithAReferenceModel() {
    let seed =
      getenvString("AFFIX_MODEL_SEED").flatMap { UInt64($0) } ?? 0x5EED_AFF1_2026_0002
    let steps = scaled(100_000)
    var world = World(seed: seed, hostCount: 50)
    for step in 0..<steps {
      var failure = world.step()
      if failure == nil, step.isMultiple(of: 500) { failure = world.checkNothingReleasedEarly() }
      if let failure {
        Issue.record("seed \(seed) (AFFIX_MODEL_SEED), step \(step) of \(steps): \(failure)")
        return
      }
    }
    world.hosts = world.hosts.map { _ in nil }
    world.model = world.model.map { _ in [:] }
    if let failure = world.checkSweep() {
      Issue.record("seed \(seed) (AFFIX_MODEL_SEED), after every host died: \(failure)")
    }
  }
}

extension ModelBasedTests.ModelValue {
  /// The object id, for values that name an object.
  fileprivate var id: Int {
    switch self {
    case .object(let id), .weak(let id): id
    default: 0
    }
  }
}
