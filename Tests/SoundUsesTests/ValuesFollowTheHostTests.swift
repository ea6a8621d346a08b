// The sound uses of Tests/Fixtures/must-compile/values-follow-the-host.swift, run while other
// tasks use the same hosts: a main-actor view's values written on the main actor while detached
// tasks and task groups read them; plain hosts inside one task each; an actor's values read
// inside it while other tasks write them.
import Affix
import Testing

@MainActor private final class Selection {
  var rows: [Int] = []
}

private enum SelectionKey: AssociatedKey {
  typealias Value = Selection?
}

private enum TitleKey: AssociatedKey {
  typealias Value = String?
}

@MainActor private final class ListView {}

@MainActor private func select(_ view: ListView, row: Int) {
  Associations(of: view)[TitleKey.self] = "\(row)"
  if Associations(of: view)[SelectionKey.self] == nil {
    Associations(of: view)[SelectionKey.self] = Selection()
  }
  Associations(of: view)[SelectionKey.self]?.rows.append(row)
}

/// The view's title, and how many rows its model holds: the model, a main-actor object reached
/// off the main actor, is only awaited there.
private func title(of view: ListView) async -> (title: String?, rows: Int?) {
  let selection = Associations(of: view)[SelectionKey.self]
  let rows = await selection?.rows.count
  return (Associations(of: view)[TitleKey.self], rows)
}

private final class Photo {}

private enum Counter: AssociatedKey {
  static let defaultValue = 0
}

private func count(_ photo: Photo) -> Int {
  Associations(of: photo).update(Counter.self) { $0 += 1 }
  return Associations(of: photo)[Counter.self]
}

private func titles<Host: AnyObject>(of hosts: [Host]) -> [String] {
  hosts.compactMap { Associations(of: $0)[TitleKey.self] }
}

private actor Library {
  func name() -> String? { Associations(of: self)[TitleKey.self] }

  /// Counts inside the actor, on the counter tasks outside it count too.
  func borrow() {
    Associations(of: self).update(Counter.self) { $0 += 1 }
  }
}

/// What one reader saw, in the order it saw it.
private struct Reading: Sendable {
  var titles: [Int] = []
  var rows: [Int] = []
}

@MainActor @Suite(.timeLimit(.minutes(1))) struct ValuesFollowTheHostTests {
  /// The main actor selects rows one by one while detached tasks and the tasks of a group read
  /// the title and await the model's row count: each reader sees the selection only move
  /// forward, and ends on the last row.
  @Test func aMainActorViewsValuesWrittenThereAreReadEverywhereElse() async {
    let view = ListView()
    let last = 2_000
    let written = Flag()
    let read: @Sendable () async -> Reading = {
      var reading = Reading()
      var done = false
      // Reads while the main actor writes, then once more after its last write.
      while !done {
        done = written.isRaised
        let (title, rows) = await title(of: view)
        if let title, let row = Int(title) { reading.titles.append(row) }
        if let rows { reading.rows.append(rows) }
      }
      return reading
    }
    let detached = (0..<2).map { _ in Task.detached { await read() } }
    let grouped = Task.detached {
      await withTaskGroup(of: Reading.self) { group in
        for _ in 0..<2 { group.addTask { await read() } }
        return await group.reduce(into: [Reading]()) { $0.append($1) }
      }
    }
    for row in 1...last {
      select(view, row: row)
      // Lets the readers' awaits of the model run on the main actor between the writes.
      if row.isMultiple(of: 50) { await Task.yield() }
    }
    written.raise()
    var readings = await grouped.value
    for task in detached { readings.append(await task.value) }
    #expect(Associations(of: view)[SelectionKey.self]?.rows == Array(1...last))
    for reading in readings {
      #expect(reading.titles.last == last)
      #expect(zip(reading.titles, reading.titles.dropFirst()).allSatisfy { $0 <= $1 })
      #expect(zip(reading.rows, reading.rows.dropFirst()).allSatisfy { $0 <= $1 })
      #expect(reading.rows.allSatisfy { (1...last).contains($0) })
    }
  }

  /// Generic code over any class, handed main-actor views from a task group while the main
  /// actor names them: it reads only their `Sendable` titles.
  @Test func genericCodeReadsTheTitlesTheMainActorWrites() async {
    let views = (0..<16).map { _ in ListView() }
    let rounds = 200
    let written = Flag()
    let readers = Task.detached {
      await withTaskGroup(of: [Int].self) { group in
        for _ in 0..<3 {
          group.addTask {
            var sums: [Int] = []
            var done = false
            while !done {
              done = written.isRaised
              sums.append(titles(of: views).compactMap { Int($0) }.reduce(0, +))
              await Task.yield()
            }
            return sums
          }
        }
        return await group.reduce(into: [[Int]]()) { $0.append($1) }
      }
    }
    for round in 1...rounds {
      for view in views { Associations(of: view)[TitleKey.self] = "\(round)" }
      await Task.yield()
    }
    written.raise()
    let sums = await readers.value
    #expect(titles(of: views) == Array(repeating: "\(rounds)", count: views.count))
    #expect(sums.allSatisfy { $0.last == rounds * views.count })
    // Every title only moves forward, so the sum a reader sees never falls.
    #expect(sums.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 <= $1 } })
  }

  /// A plain class with a `Sendable` value, made and counted inside one task, in eight tasks at
  /// once: each host keeps its own count, in the table all hosts share.
  @Test func plainHostsCountedInsideOneTaskEachKeepTheirOwnCounts() async {
    let totals = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          let photos = (0..<4).map { _ in Photo() }
          for _ in 0..<250 {
            for photo in photos { _ = count(photo) }
          }
          return photos.map { count($0) }.reduce(0, +)
        }
      }
      var totals: [Int] = []
      for await total in group { totals.append(total) }
      return totals
    }
    #expect(totals == Array(repeating: 4 * 251, count: 8))
  }

  /// An actor reads its title inside it while tasks outside rename it, and counts inside it
  /// while they count from outside: every update lands, and the name read is always one that
  /// was written, each writer's names in the order written.
  @Test func anActorsValuesAreUsedInsideItWhileOtherTasksUseThem() async {
    let library = Library()
    let writers = 4
    let names = 200
    let seen = await withTaskGroup(of: [String].self) { group in
      for writer in 0..<writers {
        group.addTask {
          for index in 0..<names {
            Associations(of: library)[TitleKey.self] = "\(writer).\(index)"
            Associations(of: library).update(Counter.self) { $0 += 1 }
          }
          return []
        }
        group.addTask {
          var seen: [String] = []
          for _ in 0..<names {
            await library.borrow()
            if let name = await library.name() { seen.append(name) }
          }
          return seen
        }
      }
      var seen: [String] = []
      for await names in group { seen += names }
      return seen
    }
    #expect(Associations(of: library)[Counter.self] == 2 * writers * names)
    let last = await library.name()
    #expect(last.map { $0.hasSuffix(".\(names - 1)") } == true)
    let written = Set((0..<writers).flatMap { writer in (0..<names).map { "\(writer).\($0)" } })
    #expect(seen.allSatisfy { written.contains($0) })
  }
}
