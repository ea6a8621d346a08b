import Affix
import AffixBenchSupport
import Dispatch
import Foundation
import Synchronization

/// The core's figures at scale: crowded hosts, table sizes, memory, two threads, and the
/// stalls a sweep may cause a reader.
extension CoreBenchmark {
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
