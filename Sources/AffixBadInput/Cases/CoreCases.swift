import Affix
import Foundation

/// Values that `as AnyObject` boxes or bridges, and a class object: hosts that cannot carry
/// values, each made fresh per call.
@MainActor func bridgedHosts() -> [(String, () -> AnyObject)] {
  [
    ("Int", { 17 as AnyObject }),
    ("Double", { 2.5 as AnyObject }),
    ("String", { "a title" as AnyObject }),
    ("Array", { [1, 2, 3] as AnyObject }),
    ("Dictionary", { ["key": 1] as AnyObject }),
    ("NSNull", { NSNull() }),
    ("nil", { Int?.none as AnyObject }),
    ("struct", { CGPoint(x: 1, y: 2) as AnyObject }),
    ("classObject", { Ledger.self as AnyObject }),
  ]
}

/// A host of values.
final class Ledger {}

enum Count17Key: AssociatedKey {
  static let defaultValue = 0
}
enum DoubleKey: AssociatedKey {
  static let defaultValue = 0.0
}
enum DurationKey: AssociatedKey {
  static let defaultValue = Duration.zero
}

/// A capability that records what it hears, in order.
final class Listener: Capability {
  let heard = Box<[String]>([])
  func didAttach(to host: AnyWeakReference) { heard.update { $0.append("attach") } }
  func didEnd(_ ending: CapabilityEnding) { heard.update { $0.append("end \(ending)") } }
}

@MainActor func coreCases() -> [BadInputCase] {
  var list = CaseList("Affix")

  for (label, host) in bridgedHosts() {
    list.add("Associations.subscript(_:)", label, .refusedHost, report: .required) { probe in
      let object = host()
      let associations = Associations(of: object)
      associations[Count17Key.self] = 5
      let read = associations[Count17Key.self]
      probe.consistent(read == 0 || read == 5, "read \(read)")
      probe.consistent(
        Associations(of: host())[Count17Key.self] == 0,
        "a fresh bridged value carries another's value")
    }
    list.add("Associations.attach(_:)", label, .refusedHost, report: .required) { probe in
      let listener = Listener()
      Associations(of: host()).attach(listener)
      AssociationTable.sweep()
      let heard = listener.heard.now
      probe.consistent(heard.first == "attach", "the capability heard \(heard) before it attached")
      probe.consistent(heard.count { $0.hasPrefix("end") } <= 1, "the capability ended \(heard)")
    }
  }

  list.sweep("Associations.subscript(_:).Int", Inputs.ints, .lostValue) { probe, input in
    let ledger = Ledger()
    Associations(of: ledger)[Count17Key.self] = input.value
    probe.kept(
      Associations(of: ledger)[Count17Key.self] == input.value, "the value was not read back")
  }
  list.sweep("Associations.subscript(_:).Double", Inputs.allDoubles, .lostValue) { probe, input in
    let ledger = Ledger()
    Associations(of: ledger)[DoubleKey.self] = input.value
    let read = Associations(of: ledger)[DoubleKey.self]
    probe.kept(read.bitPattern == input.value.bitPattern, "stored \(input.value), read \(read)")
  }
  list.sweep("Associations.update(_:_:).Duration", Inputs.allDurations, .lostValue) {
    probe, input in
    let ledger = Ledger()
    Associations(of: ledger).update(DurationKey.self) { $0 = input.value }
    probe.kept(
      Associations(of: ledger)[DurationKey.self] == input.value, "the duration was not read back")
  }

  list.add("AssociationTable.deinitGrace", Inputs.durations, kind: always(.crash)) {
    probe, grace in
    let before = AssociationTable.deinitGrace
    AssociationTable.deinitGrace = grace
    let read = AssociationTable.deinitGrace
    probe.consistent(read >= .zero, "a grace of \(read)")
    var ledger: Ledger? = Ledger()
    Associations(of: ledger!)[Count17Key.self] = 1
    ledger = nil
    AssociationTable.sweep()
    _ = AssociationTable.statistics
    AssociationTable.deinitGrace = before
  }

  list.add("Associations.attach(_:)", "hostDies", .deadHost) { probe in
    let listener = Listener()
    var ledger: Ledger? = Ledger()
    Associations(of: ledger!).attach(listener)
    ledger = nil
    AssociationTable.sweep()
    AssociationTable.sweep()
    probe.consistent(
      listener.heard.now == ["attach", "end host died"] || listener.heard.now.count == 2,
      "heard \(listener.heard.now)")
  }
  list.add("Associations.removeCapability(_:)", "twice", .wrongState) { probe in
    let ledger = Ledger()
    let listener = Listener()
    Associations(of: ledger).attach(listener)
    let first = removeCapability(Listener.self, from: ledger)
    let second = removeCapability(Listener.self, from: ledger)
    probe.consistent(
      first === listener && second == nil,
      "removed \(String(describing: first)), then \(String(describing: second))")
    probe.consistent(listener.heard.now.count == 2, "heard \(listener.heard.now)")
  }
  list.add("Associations.attach(_:)", "sameTwice", .wrongState) { probe in
    let ledger = Ledger()
    let listener = Listener()
    Associations(of: ledger).attach(listener)
    Associations(of: ledger).attach(listener)
    probe.consistent(
      Associations(of: ledger).capability(Listener.self) === listener, "the capability is gone")
  }
  list.add("Associations.observe(_:nonisolated:)", "hostDies", .deadHost) { probe in
    var ledger: Ledger? = Ledger()
    let seen = Box<[Int]>([])
    let token = Associations(of: ledger!).observe(Count17Key.self) { value in
      seen.update { $0.append(value) }
    }
    Associations(of: ledger!)[Count17Key.self] = 3
    ledger = nil
    AssociationTable.sweep()
    token.cancel()
    token.cancel()
    probe.kept(seen.now.contains(3), "an observed write was lost: \(seen.now)")
  }
  list.add("CancellationToken.cancel()", "twice", .wrongState) { probe in
    let cancelled = Count()
    let token = CancellationToken { cancelled.bump() }
    token.cancel()
    token.cancel()
    token.detach()
    probe.consistent(cancelled.now == 1 && token.isCancelled, "cancelled \(cancelled.now) times")
  }
  list.add("CancellationToken.detach()", "thenCancel", .wrongState) { probe in
    let cancelled = Count()
    let token = CancellationToken { cancelled.bump() }
    token.detach()
    token.cancel()
    probe.consistent(cancelled.now <= 1, "cancelled \(cancelled.now) times")
  }
  list.sweep("Diagnostics.report(subsystem:message:severity:)", Inputs.ints, .lostValue) {
    probe, input in
    Diagnostics.report(subsystem: "", message: "", severity: .error, fileID: "", line: input.value)
    probe.kept(probe.diagnostics.last?.line == input.value, "the line was not handed on")
  }
  list.sweep("Diagnostic.Severity.init(rawValue:)", Inputs.ints, .crash) { probe, input in
    let severity = Diagnostic.Severity(rawValue: input.value)
    probe.consistent(
      severity.map { $0.rawValue == input.value && !$0.description.isEmpty } ?? true,
      "severity \(input.value) read back as \(String(describing: severity))")
  }
  list.add("AnyWeakReference.init(_:)", "nil", .deadHost) { probe in
    let reference = AnyWeakReference(nil)
    probe.consistent(
      !reference.isAlive && reference.object == nil, "a reference to nothing is alive")
    var ledger: Ledger? = Ledger()
    let weak = AnyWeakReference(ledger)
    ledger = nil
    probe.consistent(!weak.isAlive, "a reference to a dead object is alive")
  }
  return list.cases
}
