// The sound uses of Tests/Fixtures/must-compile/callbacks-and-observers.swift, fired from writes
// and calls on other threads: observers and callbacks formed on the main actor, in an actor, and
// nonisolated.
import Affix
import Synchronization
import Testing

private final class Host: Sendable {}
private enum Number: AssociatedKey { static let defaultValue = 0 }

@MainActor private final class Label {
  var text = "" {
    didSet { texts.append(text) }
  }
  var texts: [String] = []
  var token: CancellationToken?

  func watch(_ host: Host) {
    token = Associations(of: host).observe(Number.self) { [weak self] number in
      self?.text = "\(number)"
    }
  }

  func callback() -> IsolatedCallback<String> {
    IsolatedCallback { [weak self] in self?.text = $0 }
  }
}

private actor Tally {
  var total = 0
  var numbers: [Int] = []

  func watch(_ host: Host) -> CancellationToken {
    Associations(of: host).observe(Number.self) { number in
      self.total += number
      self.numbers.append(number)
    }
  }
}

private final class Calls: Sendable {
  let count = Atomic<Int>(0)
}

private func watch(_ host: Host, _ calls: Calls) -> (CancellationToken, IsolatedCallback<Int>) {
  let token = Associations(of: host).observe(
    Number.self,
    nonisolated: { _ in
      calls.count.add(1, ordering: .relaxed)
    })
  let callback = IsolatedCallback<Int>(nonisolated: { calls.count.add($0, ordering: .relaxed) })
  return (token, callback)
}

/// Writes `count` numbers of its own, rising, to `host`: writer `writer` writes
/// `writer * 1_000 + 1`, `writer * 1_000 + 2`, …, distinct from every other writer's.
private func write(_ count: Int, as writer: Int, to host: Host) {
  for index in 1...count { Associations(of: host)[Number.self] = writer * 1_000 + index }
}

/// Whether each writer's numbers in `numbers` rise: a change never delivered before one
/// stored earlier.
private func eachWritersNumbersRise(_ numbers: [Int]) -> Bool {
  Dictionary(grouping: numbers) { $0 / 1_000 }.values.allSatisfy {
    zip($0, $0.dropFirst()).allSatisfy { $0 < $1 }
  }
}

@MainActor @Suite(.timeLimit(.minutes(1))) struct CallbacksAndObserversTests {
  /// A detached task and the tasks of a group write one host, while the main actor is free: the
  /// label's observer, formed on the main actor, gets every change there, each writer's in the
  /// order written, and ends on the stored value. (Fewer changes than an observer keeps
  /// waiting, so none is skipped.)
  @Test func aMainActorObserverGetsEveryChangeOfOtherThreadsInOrder() async {
    let host = Host()
    let label = Label()
    label.watch(host)
    let detached = Task.detached { write(60, as: 1, to: host) }
    await withTaskGroup(of: Void.self) { group in
      for writer in 2...3 { group.addTask { write(60, as: writer, to: host) } }
    }
    await detached.value
    await yield(until: { label.texts.count == 180 })
    let numbers = label.texts.compactMap { Int($0) }
    #expect(numbers.count == 180)
    #expect(Set(numbers) == Set((1...3).flatMap { writer in (1...60).map { writer * 1_000 + $0 } }))
    #expect(eachWritersNumbersRise(numbers))
    #expect(label.text == "\(Associations(of: host)[Number.self])")
    label.token = nil
  }

  /// Once the main actor cancels the label's observer, no change reaches the label, though a
  /// detached task goes on writing, and changes it wrote before may still wait there.
  @Test func aMainActorObserverCancelledThereRunsNoMore() async {
    let host = Host()
    let label = Label()
    label.watch(host)
    let stop = Flag()
    let writer = Task.detached {
      var writes = 0
      while !stop.isRaised || writes < 100 {
        writes += 1
        Associations(of: host)[Number.self] = writes
        await Task.yield()
      }
      return writes
    }
    await yield(until: { label.texts.count >= 10 })
    label.token?.cancel()
    let delivered = label.texts.count
    stop.raise()
    let writes = await writer.value
    for _ in 0..<1_000 { await Task.yield() }
    #expect(delivered >= 10)
    #expect(label.texts.count == delivered)
    #expect(Associations(of: host)[Number.self] == writes)
  }

  /// The label's main-actor callback, called from a detached task, the tasks of a group and the
  /// main actor itself: every call runs on the main actor, each caller's in order, and
  /// `delivered()` returns once the last has.
  @Test func aMainActorCallbackRunsEveryCallOfEveryThreadInOrder() async {
    let label = Label()
    let callback = label.callback()
    let calls = 100
    let call: @Sendable (Int) -> Void = { caller in
      for index in 1...calls { callback("\(caller * 1_000 + index)") }
    }
    let detached = Task.detached { call(1) }
    await withTaskGroup(of: Void.self) { group in
      for caller in 2...3 { group.addTask { call(caller) } }
      call(4)
    }
    await detached.value
    await callback.delivered()
    let numbers = label.texts.compactMap { Int($0) }
    #expect(numbers.count == 4 * calls)
    #expect(Set(numbers).count == 4 * calls)
    #expect(eachWritersNumbersRise(numbers))
    #expect(label.text == label.texts.last)
  }

  /// An actor's observer, formed inside it, tallies every change the tasks of a group write,
  /// while other tasks read the tally on the same actor.
  @Test func anActorsObserverTalliesEveryChangeOfATaskGroup() async {
    let host = Host()
    let tally = Tally()
    let token = await tally.watch(host)
    await withTaskGroup(of: Void.self) { group in
      for writer in 1...4 {
        group.addTask { write(40, as: writer, to: host) }
        group.addTask { for _ in 0..<40 { _ = await tally.total } }
      }
    }
    let expected = (1...4).flatMap { writer in (1...40).map { writer * 1_000 + $0 } }
    await yield(until: { await tally.numbers.count == expected.count })
    #expect(await tally.total == expected.reduce(0, +))
    let numbers = await tally.numbers
    #expect(numbers.sorted() == expected.sorted())
    #expect(eachWritersNumbersRise(numbers))
    token.cancel()
  }

  /// The nonisolated observer and callback run on the writers' threads: once the writers
  /// return, every write and every call has been counted, and after the cancel none is. (The
  /// writes are fewer than an observer keeps waiting, so none is skipped; the callback's calls
  /// are never skipped.)
  @Test func nonisolatedObserversAndCallbacksCountEveryCallOfEveryThread() async {
    let host = Host()
    let calls = Calls()
    let (token, callback) = watch(host, calls)
    await withTaskGroup(of: Void.self) { group in
      for writer in 1...8 {
        group.addTask {
          write(30, as: writer, to: host)
          for _ in 0..<100 { callback(2) }
        }
      }
    }
    let counted = 8 * 30 + 8 * 100 * 2
    #expect(calls.count.load(ordering: .relaxed) == counted)
    token.cancel()
    await Task.detached { write(10, as: 9, to: host) }.value
    #expect(calls.count.load(ordering: .relaxed) == counted)
  }
}
