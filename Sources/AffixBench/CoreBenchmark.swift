import Affix
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `affix-bench core`: the associated-storage core against a stored property (B0) and the
/// hand-written locked dictionary (B1).
enum CoreBenchmark {
  final class Host {
    var stored: Token?
    var storedInt = 0
  }

  final class Token {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  static let tokenKey = AssociatedKey<Token>("token")
  static let intKey = AssociatedKey<Int>("int")
  static let extraKeys = (0..<8).map { AssociatedKey<Int>("extra\($0)") }

  /// B1: the usual hand-written substitute.
  final class LockedDictionaryStore: @unchecked Sendable {  // Guarded by `lock`.
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
  }

  @inline(never)
  static func readStored(_ host: Host) -> Token? { host.stored }

  @inline(never)
  static func readStoredInt(_ host: Host) -> Int { host.storedInt }

  static func profileGetInt() {
    let hosts = (0..<1_000).map { _ in Host() }
    for host in hosts { Associations(of: host)[intKey] = 1 }
    var sum = 0
    for _ in 0..<20000 {
      for host in hosts { sum &+= Associations(of: host)[intKey] ?? 0 }
    }
    blackHole(sum)
  }

  static func profileSet() {
    let hosts = (0..<1_000).map { _ in Host() }
    let tokens = (0..<1_000).map { Token($0) }
    for _ in 0..<5000 {
      for (host, token) in zip(hosts, tokens) { Associations(of: host)[tokenKey] = token }
    }
  }

  static func run() {
    let hosts = (0..<1_000).map { _ in Host() }
    let tokens = (0..<1_000).map { Token($0) }
    let passes = 1_000
    let operations = hosts.count * passes
    let b1 = LockedDictionaryStore()
    for (host, token) in zip(hosts, tokens) {
      host.stored = token
      host.storedInt = token.value
      Associations(of: host)[tokenKey] = token
      Associations(of: host)[intKey] = token.value
      b1.set(host, "token", token)
      b1.set(host, "int", token.value)
    }

    let b0Get = nanosecondsPerOperation(operations: operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readStored(host)?.value ?? 0 } }
      blackHole(sum)
    }
    let get = nanosecondsPerOperation(operations: operations) {
      var sum = 0
      for _ in 0..<passes {
        for host in hosts { sum &+= Associations(of: host)[tokenKey]?.value ?? 0 }
      }
      blackHole(sum)
    }
    let b1Get = nanosecondsPerOperation(operations: operations / 10) {
      var sum = 0
      for _ in 0..<passes / 10 {
        for host in hosts { sum &+= (b1.get(host, "token") as Token?)?.value ?? 0 }
      }
      blackHole(sum)
    }
    let b0GetInt = nanosecondsPerOperation(operations: operations) {
      var sum = 0
      for _ in 0..<passes { for host in hosts { sum &+= readStoredInt(host) } }
      blackHole(sum)
    }
    let getInt = nanosecondsPerOperation(operations: operations) {
      var sum = 0
      for _ in 0..<passes {
        for host in hosts { sum &+= Associations(of: host)[intKey] ?? 0 }
      }
      blackHole(sum)
    }
    let set = nanosecondsPerOperation(operations: operations / 10) {
      for _ in 0..<passes / 10 {
        for (host, token) in zip(hosts, tokens) { Associations(of: host)[tokenKey] = token }
      }
    }
    let b1Set = nanosecondsPerOperation(operations: operations / 10) {
      for _ in 0..<passes / 10 {
        for (host, token) in zip(hosts, tokens) { b1.set(host, "token", token) }
      }
    }
    report("core.get", get, "ns/op")
    report("core.get_int", getInt, "ns/op")
    report("core.b0_get", b0Get, "ns/op")
    report("core.b0_get_int", b0GetInt, "ns/op")
    report("core.b1_get", b1Get, "ns/op")
    report("core.set", set, "ns/op")
    report("core.b1_set", b1Set, "ns/op")
    reportRatio("core.get_speedup_vs_b1", b1Get / get)
    reportRatio("core.set_speedup_vs_b1", b1Set / set)
    reportRatio("core.get_vs_b0", get / b0Get)
  }
}
