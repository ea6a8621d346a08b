import Affix
import AffixBenchSupport
import Dispatch
import Foundation
import Synchronization

/// `affix-bench core`: the associated-storage core against **B0**, a stored property read
/// through a non-inlined function, and **B1**, the hand-written substitute (`NSLock` around
/// `[ObjectIdentifier: [String: Any]]` with string keys), measured in the same run.
enum CoreBenchmark {
  final class Host {
    var number = 0
    var token: Token?
    var title: String?
  }

  final class Token: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  /// The `Int` key.
  enum Number: AssociatedKey {
    static let defaultValue = 0
  }

  /// The object key.
  enum TokenKey: AssociatedKey {
    typealias Value = Token?
  }

  /// The `String` key: a title.
  enum TitleKey: AssociatedKey {
    typealias Value = String?
  }

  /// Seven more `Int` keys, one per tag type, for hosts with eight values.
  enum Extra<Tag>: AssociatedKey {
    static var defaultValue: Int { 0 }
  }
  enum Tag0 {}
  enum Tag1 {}
  enum Tag2 {}
  enum Tag3 {}
  enum Tag4 {}
  enum Tag5 {}
  enum Tag6 {}

  /// The last extra key, read in `core.get_last_of_8`.
  typealias LastExtra = Extra<Tag6>

  /// Sets every extra key on `host` to `value`.
  static func setExtras(on host: Host, to value: Int) {
    let values = Associations(of: host)
    values[Extra<Tag0>.self] = value
    values[Extra<Tag1>.self] = value
    values[Extra<Tag2>.self] = value
    values[Extra<Tag3>.self] = value
    values[Extra<Tag4>.self] = value
    values[Extra<Tag5>.self] = value
    values[LastExtra.self] = value
  }

  static let extraCount = 7

  /// B1: the usual hand-written substitute.
  final class LockedDictionaryStore: @unchecked Sendable {  // Every access holds `lock`.
    let lock = NSLock()
    var table: [ObjectIdentifier: [String: Any]] = [:]

    func get<T>(_ host: AnyObject, _ key: String) -> T? {
      lock.lock()
      defer { lock.unlock() }
      return table[ObjectIdentifier(host)]?[key] as? T
    }

    func set(_ host: AnyObject, _ key: String, _ value: Any?) {
      lock.lock()
      defer { lock.unlock() }
      table[ObjectIdentifier(host), default: [:]][key] = value
    }

    func remove(_ host: AnyObject, _ key: String) -> Any? {
      lock.lock()
      defer { lock.unlock() }
      return table[ObjectIdentifier(host)]?.removeValue(forKey: key)
    }
  }

  @inline(never)
  static func readNumber(_ host: Host) -> Int { host.number }

  /// B0's loop, out of line, in three more placements of the same loop: the sums start from
  /// different constants, which changes only the code around the loop, and so where the loop
  /// lands.
  @inline(never)
  static func sumOfNumbers(_ hosts: [Host], passes: Int) -> Int {
    var sum = 0
    for _ in 0..<passes { for host in hosts { sum &+= readNumber(host) } }
    return sum
  }

  @inline(never)
  static func sumOfNumbersFromOne(_ hosts: [Host], passes: Int) -> Int {
    var sum = 1
    for _ in 0..<passes { for host in hosts { sum &+= readNumber(host) } }
    return sum
  }

  @inline(never)
  static func sumOfNumbersFromTwo(_ hosts: [Host], passes: Int) -> Int {
    var sum = 2
    for _ in 0..<passes { for host in hosts { sum &+= readNumber(host) } }
    return sum
  }

  @inline(never)
  static func readToken(_ host: Host) -> Token? { host.token }

  /// B0's object read, but returning its own reference, as every read of a shared object must:
  /// the optimizer may not turn the owned result into a borrowed one. The floor of an object
  /// read that retains.
  @inline(never) @_semantics("optimize.sil.specialize.owned2guarantee.never")
  static func readTokenRetained(_ host: Host) -> Token? { host.token }

  @inline(never)
  static func readTitle(_ host: Host) -> String? { host.title }

  /// Titles as a host carries them: short enough to be stored in the string itself.
  static func titleText(_ index: Int) -> String { "Title \(index)" }

  static func run(quick: Bool) {
    let passes = quick ? 50 : 1_000
    let hosts = (0..<1_000).map { _ in Host() }
    let tokens = (0..<1_000).map { Token($0) }
    let operations = hosts.count * passes
    let b1 = LockedDictionaryStore()
    for (host, token) in zip(hosts, tokens) {
      host.number = token.value
      host.token = token
      host.title = titleText(token.value)
      Associations(of: host)[Number.self] = token.value
      Associations(of: host)[TokenKey.self] = token
      Associations(of: host)[TitleKey.self] = titleText(token.value)
      b1.set(host, "number", token.value)
      b1.set(host, "token", token)
      b1.set(host, "title", titleText(token.value))
    }

    // Int values: the common case of a stored property added by an extension. Each figure is
    // timed in rounds alternating with its baseline's, so that a change in the machine's speed
    // during the run (a neighbour's load, a frequency step) reaches both the same way.
    //
    // B0 is timed in four copies of its loop, three of them out of line. Where a loop this
    // small lands in the instruction cache moves it between 0.9 and 1.5 ns here from one build
    // to the next (a loop that straddles a 32-byte boundary is slower), so the baseline is the
    // best of four placements, timed in the same rounds.
    var b0GetCopies = [Double](repeating: .infinity, count: 4)
    let copies: [([Host], Int) -> Int] = [sumOfNumbers, sumOfNumbersFromOne, sumOfNumbersFromTwo]
    let (b0GetFirstCopy, get) = alternating(operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readNumber(host) } }
      blackHole(sum)
    } _: {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= Associations(of: host)[Number.self] } }
      blackHole(sum)
    } between: {
      for (index, copy) in copies.enumerated() {
        b0GetCopies[index + 1] = min(
          b0GetCopies[index + 1],
          nanosecondsPerOperation(operations: operations, rounds: 3) {
            blackHole(copy(hosts, passes))
          })
      }
    }
    b0GetCopies[0] = b0GetFirstCopy
    for (index, figure) in b0GetCopies.enumerated() {
      report("core.b0_get_copy_\(index + 1)", figure, "ns/op")
    }
    let b0Get = b0GetCopies.min() ?? .infinity
    let (b1Get, _) = alternating(operations / 10) {
      var sum = 0
      for _ in 0..<passes / 10 {
        for host in hosts { sum &+= b1.get(host, "number") ?? 0 }
      }
      blackHole(sum)
    } _: {
    }
    let (b1Set, set) = alternating(operations / 10) {
      for pass in 0..<passes / 10 { for host in hosts { b1.set(host, "number", pass) } }
    } _: {
      for pass in 0..<passes / 10 {
        for host in hosts { Associations(of: host)[Number.self] = pass }
      }
    }
    let update = time(operations / 10) {
      for _ in 0..<passes / 10 {
        for host in hosts { Associations(of: host).update(Number.self) { $0 &+= 1 } }
      }
    }
    let remove = time(operations / 10) {
      var sum = 0
      for _ in 0..<passes / 10 {
        for host in hosts {
          sum &+= Associations(of: host).removeValue(for: Number.self)
          Associations(of: host)[Number.self] = 1
        }
      }
      blackHole(sum)
    }
    let b1Remove = time(operations / 10) {
      var count = 0
      for _ in 0..<passes / 10 {
        for host in hosts {
          if b1.remove(host, "number") != nil { count += 1 }
          b1.set(host, "number", 1)
        }
      }
      blackHole(count)
    }

    // Object values: the common case of a mixin's handle.
    let b0GetObject = time(operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readToken(host)?.value ?? 0 } }
      blackHole(sum)
    }
    let getObject = time(operations) {
      var sum = 0
      for _ in 0..<passes {
        for host in hosts { sum &+= Associations(of: host)[TokenKey.self]?.value ?? 0 }
      }
      blackHole(sum)
    }
    let b1GetObject = time(operations / 10) {
      var sum = 0
      for _ in 0..<passes / 10 {
        for host in hosts { sum &+= (b1.get(host, "token") as Token?)?.value ?? 0 }
      }
      blackHole(sum)
    }

    let b0GetObjectRetained = time(operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readTokenRetained(host)?.value ?? 0 } }
      blackHole(sum)
    }

    // String values: a title, as the README's computed property reads it.
    let b0GetString = time(operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readTitle(host)?.utf8.count ?? 0 } }
      blackHole(sum)
    }
    let getString = time(operations) {
      var sum = 0
      for _ in 0..<passes {
        for host in hosts { sum &+= Associations(of: host)[TitleKey.self]?.utf8.count ?? 0 }
      }
      blackHole(sum)
    }
    let b1GetString = time(operations / 10) {
      var sum = 0
      for _ in 0..<passes / 10 {
        for host in hosts { sum &+= (b1.get(host, "title") as String?)?.utf8.count ?? 0 }
      }
      blackHole(sum)
    }

    report("core.get", get, "ns/op")
    report("core.set", set, "ns/op")
    report("core.update", update, "ns/op")
    report("core.remove_and_set", remove, "ns/op")
    report("core.b0_get", b0Get, "ns/op")
    report("core.b1_get", b1Get, "ns/op")
    report("core.b1_set", b1Set, "ns/op")
    report("core.b1_remove_and_set", b1Remove, "ns/op")
    report("core.get_object", getObject, "ns/op")
    report("core.b0_get_object", b0GetObject, "ns/op")
    report("core.b1_get_object", b1GetObject, "ns/op")
    reportRatio("core.get_speedup_vs_b1", b1Get / get)
    reportRatio("core.set_speedup_vs_b1", b1Set / set)
    // Target: at most 2x (an inline value with no observer, compared and stored in place).
    reportRatio("core.update_vs_set", update / set)
    reportRatio("core.remove_speedup_vs_b1", b1Remove / remove)
    reportRatio("core.get_object_speedup_vs_b1", b1GetObject / getObject)
    reportRatio("core.get_vs_b0", get / b0Get)
    reportRatio("core.get_object_vs_b0", getObject / b0GetObject)
    report("core.b0_get_object_retained", b0GetObjectRetained, "ns/op")
    reportRatio("core.get_object_vs_b0_retained", getObject / b0GetObjectRetained)
    report("core.get_string", getString, "ns/op")
    report("core.b0_get_string", b0GetString, "ns/op")
    report("core.b1_get_string", b1GetString, "ns/op")
    reportRatio("core.get_string_speedup_vs_b1", b1GetString / getString)
    reportRatio("core.get_string_vs_b0", getString / b0GetString)
    reportRatio("core.get_string_vs_get_object", getString / getObject)

    crowded(quick: quick, get: get)
    scaling(quick: quick, get1k: get, b0Get1k: b0Get)
    memory(quick: quick)
    twoThreads(quick: quick)
    reclamation(quick: quick)
    sweepStall(quick: quick)
    deliveries(quick: quick, set: set)
    observation(quick: quick, get: get, set: set)
  }

  static func time(_ operations: Int, _ body: () -> Void) -> Double {
    nanosecondsPerOperation(operations: operations, body)
  }

  /// The best times of `baseline` and `candidate`, timed in alternating rounds; `between`
  /// runs after each pair, for a third figure timed in the same rounds.
  static func alternating(
    _ operations: Int, _ baseline: () -> Void, _ candidate: () -> Void,
    between: () -> Void = {}
  ) -> (baseline: Double, candidate: Double) {
    var best = (baseline: Double.infinity, candidate: Double.infinity)
    for _ in 0..<5 {
      best.baseline = min(
        best.baseline, nanosecondsPerOperation(operations: operations, rounds: 3, baseline))
      best.candidate = min(
        best.candidate, nanosecondsPerOperation(operations: operations, rounds: 3, candidate))
      between()
    }
    return best
  }

  /// Get on hosts with eight values each: the first key (an inline entry) and the last (in the
  /// overflow buffer), against `core.get` on hosts with two.
  static func crowded(quick: Bool, get: Double) {
    let passes = quick ? 50 : 1_000
    let hosts = (0..<1_000).map { _ in Host() }
    for host in hosts {
      Associations(of: host)[Number.self] = 1
      setExtras(on: host, to: 2)
    }
    let first = time(hosts.count * passes) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= Associations(of: host)[Number.self] } }
      blackHole(sum)
    }
    let last = time(hosts.count * passes) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= Associations(of: host)[LastExtra.self] } }
      blackHole(sum)
    }
    report("core.get_first_of_8", first, "ns/op")
    report("core.get_last_of_8", last, "ns/op")
    reportRatio("core.get_last_of_8_vs_get", last / get)
  }

  /// Get at many hosts against get at 1,000, and the time to sweep them all once dead.
  ///
  /// B0 at as many hosts is measured too: past the caches, any read slows down by how much
  /// memory it touches, and B0 touches one line a host where the core touches two.
  static func scaling(quick: Bool, get1k: Double, b0Get1k: Double) {
    let count = quick ? 100_000 : 1_000_000
    var hosts: [Host] = (0..<count).map { _ in Host() }
    for host in hosts {
      host.number = 1
      Associations(of: host)[Number.self] = 1
    }
    let b0Get = nanosecondsPerOperation(operations: count, rounds: 3) {
      var sum = 0
      for host in hosts { sum &+= readNumber(host) }
      blackHole(sum)
    }
    let get = nanosecondsPerOperation(operations: count, rounds: 3) {
      var sum = 0
      for host in hosts { sum &+= Associations(of: host)[Number.self] }
      blackHole(sum)
    }
    let label = quick ? "100k" : "1m"
    report("core.get_\(label)_hosts", get, "ns/op")
    report("core.b0_get_\(label)_hosts", b0Get, "ns/op")
    reportRatio("core.get_\(label)_vs_1k", get / get1k)
    reportRatio("core.b0_get_\(label)_vs_1k", b0Get / b0Get1k)

    hosts = []
    let start = DispatchTime.now().uptimeNanoseconds
    let swept = AssociationTable.sweep()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    report("core.sweep_\(label)_dead_hosts", elapsed, "ms")
    report("core.sweep_hosts_released", Double(swept), "hosts", digits: 0)
  }

  /// Bytes for a host's first value and for each further value, against B1.
  static func memory(quick: Bool) {
    guard affix_bench_allocated_bytes() >= 0 else {
      print("core.memory_vs_b1: unavailable (the C library reports no allocation totals)")
      return
    }
    do {
      let count = quick ? 2_000 : 20_000
      let hosts = (0..<count).map { _ in Host() }
      let b1 = LockedDictionaryStore()
      b1.table.reserveCapacity(count)
      AssociationTable.sweep()

      var before = allocatedBytes()
      for host in hosts { Associations(of: host)[Number.self] = 1 }
      let first = Double(allocatedBytes() - before) / Double(count)
      before = allocatedBytes()
      for host in hosts { setExtras(on: host, to: 2) }
      let further = Double(allocatedBytes() - before) / Double(count * extraCount)

      before = allocatedBytes()
      for host in hosts { b1.set(host, "number", 1) }
      let b1First = Double(allocatedBytes() - before) / Double(count)
      before = allocatedBytes()
      for host in hosts { for index in 0..<extraCount { b1.set(host, "extra\(index)", 2) } }
      let b1Further = Double(allocatedBytes() - before) / Double(count * extraCount)

      report("core.bytes_first_value", first, "bytes", digits: 0)
      report("core.bytes_further_value", further, "bytes", digits: 0)
      report("core.b1_bytes_first_value", b1First, "bytes", digits: 0)
      report("core.b1_bytes_further_value", b1Further, "bytes", digits: 0)
      let perValue = (first + further * Double(extraCount)) / Double(1 + extraCount)
      let b1PerValue = (b1First + b1Further * Double(extraCount)) / Double(1 + extraCount)
      report("core.bytes_per_value_8_per_host", perValue, "bytes", digits: 0)
      report("core.b1_bytes_per_value_8_per_host", b1PerValue, "bytes", digits: 0)
      reportRatio("core.memory_vs_b1", perValue / b1PerValue)
      blackHole(hosts)
    }
  }

  static func allocatedBytes() -> Int {
    affix_bench_allocated_bytes()
  }

  /// Hosts for the threads of `twoThreads`.
  ///
  /// `@unchecked Sendable`: each thread reads its own set, and nothing changes the hosts while
  /// the threads run.
  struct HostSets: @unchecked Sendable {
    let sets: [[Host]]
  }

  /// Throughput of two threads reading values of distinct hosts, against one thread.
  static func twoThreads(quick: Bool) {
    let passes = quick ? 200 : 2_000
    // Each thread reads its own hosts: distinct hosts, no shared reference counts. The hosts
    // get their values before any timing, so that only reads are timed.
    let hostSets = HostSets(sets: (0..<2).map { _ in (0..<1_000).map { _ in Host() } })
    for host in hostSets.sets.joined() {
      host.number = 1
      Associations(of: host)[Number.self] = 1
    }
    let read: @Sendable (Int) -> Void = { set in
      var sum = 0
      for _ in 0..<passes {
        for host in hostSets.sets[set] { sum &+= Associations(of: host)[Number.self] }
      }
      blackHole(sum)
    }
    let readB0: @Sendable (Int) -> Void = { set in
      var sum = 0
      for _ in 0..<passes { for host in hostSets.sets[set] { sum &+= readNumber(host) } }
      blackHole(sum)
    }
    let (one, two) = oneThreadAgainstTwo(operationsPerThread: passes * 1_000, read)
    let (b0One, b0Two) = oneThreadAgainstTwo(operationsPerThread: passes * 1_000, readB0)
    report("core.get_one_thread", one, "ns/op")
    report("core.get_two_threads", two, "ns/op")
    reportRatio("core.two_thread_scaling", one / two)
    // What two threads gain on this machine at all, for the same loop over a stored property.
    reportRatio("core.b0_two_thread_scaling", b0One / b0Two)
  }

  /// Nanoseconds per operation of `work(0)` on one thread, and of `work(0)` and `work(1)` on
  /// two at once, each the best of five rounds. Rounds alternate between one thread and two,
  /// so both see the machine alike.
  static func oneThreadAgainstTwo(
    operationsPerThread: Int, _ work: @escaping @Sendable (Int) -> Void
  ) -> (one: Double, two: Double) {
    var best = (one: Double.infinity, two: Double.infinity)
    for _ in 0..<5 {
      best.one = min(
        best.one, nanosecondsPerOperation(operations: operationsPerThread, rounds: 1) { work(0) })
      best.two = min(
        best.two,
        nanosecondsPerOperation(operations: 2 * operationsPerThread, rounds: 1) {
          DispatchQueue.concurrentPerform(iterations: 2) { work($0) }
        })
    }
    return best
  }

  /// The longest a read that misses waits while a full sweep of dead hosts runs: a sweep takes
  /// the dead hosts off the table in chunks, and a reader waits for one chunk at most. The
  /// release of their values, which follows, takes no lock a reader needs, but its threads
  /// compete with the reader for the processors; it is timed apart. The same reader timed for
  /// as long with no sweep gives the machine's own worst (a preempted thread).
  static func sweepStall(quick: Bool) {
    let count = quick ? 200_000 : 1_000_000
    var hosts = (0..<count).map { _ in Host() }
    for host in hosts { Associations(of: host)[Number.self] = 1 }
    // The background sweeper may take some of them first; either way a pass runs under the
    // reader.
    hosts.removeAll()
    let (passWorst, passSlow, passTime) = worstMissingRead { AssociationTable.takeDeadHostsOff() }
    let (releaseWorst, releaseSlow, releaseTime) = worstMissingRead { AssociationTable.sweep() }
    let (idleWorst, idleSlow, _) = worstMissingRead {
      let start = DispatchTime.now().uptimeNanoseconds
      while Double(DispatchTime.now().uptimeNanoseconds - start) < passTime + releaseTime {}
    }
    report(
      "core.full_sweep_ms", (passTime + releaseTime) / 1e6,
      "ms (\(count) dead hosts: \(formatted(passTime / 1e6, digits: 1)) ms off the table, "
        + "\(formatted(releaseTime / 1e6, digits: 1)) ms releasing)")
    report(
      "core.read_stall_during_sweep_us", passWorst / 1e3,
      "us (worst read that misses while the dead hosts are taken off the table; "
        + "\(passSlow) reads over 1 ms; target under 1,000)")
    report(
      "core.read_stall_during_release_us", releaseWorst / 1e3,
      "us (while their values are released; \(releaseSlow) reads over 1 ms)")
    report(
      "core.read_stall_without_sweep_us", idleWorst / 1e3,
      "us (the same reader as long with no sweep: a preempted thread; \(idleSlow) over 1 ms)")
  }

  /// The worst time of a read that misses, on another thread, while `body` runs; with the
  /// number of reads over a millisecond and `body`'s time in nanoseconds.
  static func worstMissingRead(during body: () -> Void) -> (Double, Int, Double) {
    let probe = Probe()
    let stop = Atomic<Bool>(false)
    let started = DispatchSemaphore(value: 0)
    let worst = Atomic<UInt64>(0)
    let slowReads = Atomic<Int>(0)
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
      var longest: UInt64 = 0
      var slow = 0
      started.signal()
      while !stop.load(ordering: .relaxed) {
        let start = DispatchTime.now().uptimeNanoseconds
        blackHole(Associations(of: probe)[Number.self])
        let time = DispatchTime.now().uptimeNanoseconds - start
        longest = max(longest, time)
        if time > 1_000_000 { slow += 1 }
      }
      worst.store(longest, ordering: .relaxed)
      slowReads.store(slow, ordering: .relaxed)
    }
    started.wait()
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
    stop.store(true, ordering: .relaxed)
    reader.wait()
    return (
      Double(worst.load(ordering: .relaxed)), slowReads.load(ordering: .relaxed), elapsed
    )
  }
}

/// A host with no values, read by a thread of its own.
private final class Probe: Sendable {}
