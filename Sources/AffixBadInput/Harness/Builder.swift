import Affix

/// Collects cases, named `<module>.<entry point>.<input>`.
@MainActor struct CaseList {
  private(set) var cases: [BadInputCase] = []
  let module: String

  init(_ module: String) {
    self.module = module
  }

  mutating func add(
    _ entry: String, _ input: String, _ kind: CaseClass, report: Report = .optional,
    _ body: @escaping @MainActor (Probe) async -> Void
  ) {
    cases.append(
      BadInputCase(
        name: "\(module).\(entry).\(input)", module: module, entry: entry, kind: kind,
        report: report, body: body))
  }

  /// One case per input of `table`: the class and report follow from the input's family.
  mutating func add<Value>(
    _ entry: String, _ table: [Input<Value>], kind: (Input<Value>) -> CaseClass,
    reportFor reported: Set<Family> = [], report: Report = .atCaller,
    _ body: @escaping @MainActor (Probe, Value) async -> Void
  ) {
    for input in table {
      let value = input.value
      add(
        entry, input.label, kind(input),
        report: reported.contains(input.family) ? report : .optional
      ) { probe in await body(probe, value) }
    }
  }
}

extension CaseList {
  /// One case that feeds every input of `table` to a pure function in turn: a value type's
  /// method has no state to leave behind, so one process checks the whole table.
  mutating func sweep<Value>(
    _ entry: String, _ table: [Input<Value>], _ kind: CaseClass,
    _ body: @escaping @MainActor (Probe, Input<Value>) -> Void
  ) {
    add(entry, "sweep", kind) { probe in
      for input in table { body(probe, input) }
    }
  }
}

/// Every case of every module, in a fixed order.
@MainActor func allCases() -> [BadInputCase] {
  schedulingCases() + motionCases() + loadingCases() + tooltipCases() + dancingCases()
    + valueCases() + draggableCases() + physicsCases() + coreCases() + testingCases()
    + mainQueueCases() + waitCases() + coverageCases() + reentrancyCases()
}

/// The class a case of a numeric input belongs to: a finite extreme threatens the result's
/// finiteness, a non-finite one too; the others a crash.
func numericClass<Value>(_ input: Input<Value>) -> CaseClass {
  switch input.family {
  case .nonFinite, .huge, .tiny: .nonFinite
  case .negative, .zero: .crash
  }
}

/// For a duration or an interval: the tiny ones threaten a hang, the huge ones an overflow.
func timedClass<Value>(_ input: Input<Value>) -> CaseClass {
  switch input.family {
  case .tiny: .hang
  case .huge, .negative: .crash
  case .nonFinite: .nonFinite
  case .zero: .hang
  }
}

/// One class for every input of a table.
func always<Value>(_ kind: CaseClass) -> (Input<Value>) -> CaseClass {
  { _ in kind }
}

/// `huge` for the huge inputs of a table, `other` for the rest.
func hugeIs<Value>(_ huge: CaseClass, else other: CaseClass) -> (Input<Value>) -> CaseClass {
  { $0.family == .huge ? huge : other }
}

/// Counts what a `@Sendable` action did.
final class Count: Sendable {
  private let value = LockedState(0)
  init() {}
  func bump() { value.withLock { $0 += 1 } }
  var now: Int { value.withLock { $0 } }
}

/// Keeps what `@Sendable` closures hand back.
final class Box<Value: Sendable>: Sendable {
  private let value: LockedState<Value>
  init(_ initial: Value) { value = LockedState(initial) }
  func set(_ new: Value) { value.withLock { $0 = new } }
  func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
  var now: Value { value.withLock { $0 } }
}
