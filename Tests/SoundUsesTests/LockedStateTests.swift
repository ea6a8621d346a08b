// The sound uses of Tests/Fixtures/must-compile/locked-state.swift, run by many tasks at once.
import Affix
import Testing

private final class Counter {
  var count = 0
}

private func count(_ state: LockedState<Counter>) -> Int {
  state.withLock { counter in
    counter.count += 1
    return counter.count
  }
}

private func make() -> LockedState<Counter> {
  LockedState(Counter())
}

@Suite(.timeLimit(.minutes(1))) struct LockedStateTests {
  /// One state, made once and shared by the tasks of a group and detached tasks: each count is
  /// taken under the lock, so every task sees a count no other task saw, and none is lost.
  @Test func tasksSharingOneStateCountEachOnceAndLoseNothing() async {
    let state = make()
    let tasks = 8
    let counts = 500
    let detached = (0..<2).map { _ in
      Task.detached { (0..<counts).map { _ in count(state) } }
    }
    let grouped = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<tasks - detached.count {
        group.addTask { (0..<counts).map { _ in count(state) } }
      }
      return await group.reduce(into: [[Int]]()) { $0.append($1) }
    }
    var seen = grouped
    for task in detached { seen.append(await task.value) }
    // Each task's counts rise, and together they are every count once.
    #expect(seen.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 < $1 } })
    #expect(seen.flatMap { $0 }.sorted() == Array(1...tasks * counts))
    #expect(count(state) == tasks * counts + 1)
  }

  /// A state per task, made and used inside it, while the others do the same.
  @Test func statesMadeInsideTasksCountOnlyTheirOwn() async {
    let totals = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          let state = make()
          for _ in 0..<499 { _ = count(state) }
          return count(state)
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(totals == Array(repeating: 500, count: 8))
  }
}
