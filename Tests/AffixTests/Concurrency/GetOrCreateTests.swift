import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

@Suite struct GetOrCreateTests {
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }
  let value = TrackedValue.self

  @Test func racingCallersOnAnEmptyKeyAllReceiveTheOneStoredValue() {
    for round in 0..<50 {
      let host = Host()
      let lifetimes = Lifetimes()
      let received = Recording<Tracked>()
      let arrivals = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        let got = Associations(of: host).value(for: value) {
          arrivals.add(1, ordering: .relaxed)
          waitBriefly(until: { arrivals.load(ordering: .relaxed) >= 2 })
          return lifetimes.make(index)
        }
        received.append(got)
      }
      let stored = Associations(of: host)[value]
      #expect(stored != nil, "round \(round)")
      #expect(received.values.allSatisfy { $0 === stored }, "round \(round)")
      #expect(received.count == 8)
      #expect(Associations(of: host).keys.count == 1)
      // Every loser's value is already gone: one value lives, the stored one.
      #expect(lifetimes.alive == 1, "round \(round)")
    }
  }

  @Test func racingCallersOnAnInlineKeyAgreeOnOneValue() {
    // `Int32?` fits in a word, so it is stored inline (an `Int?` would be boxed).
    enum Inline: AssociatedKey { typealias Value = Int32? }
    let key = Inline.self
    for _ in 0..<50 {
      let host = Host()
      let received = Recording<Int32>()
      let arrivals = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        let got = Associations(of: host).value(for: key) {
          arrivals.add(1, ordering: .relaxed)
          waitBriefly(until: { arrivals.load(ordering: .relaxed) >= 2 })
          return Int32(index)
        }
        received.append(got)
      }
      let stored = Associations(of: host)[key]
      #expect(received.values.allSatisfy { $0 == stored })
    }
  }

  @Test func racingCallersOnManyHostsEachGetTheirHostsValue() {
    let hosts = (0..<64).map { _ in Host() }
    let received = (0..<4).map { _ in Recording<Tracked>() }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for (index, host) in hosts.enumerated() {
        received[thread].append(Associations(of: host).value(for: value) { Tracked(index) })
      }
    }
    for (index, host) in hosts.enumerated() {
      let stored = Associations(of: host)[value]
      #expect(stored?.id == index)
      #expect(received.allSatisfy { $0.values[index] === stored })
    }
  }

  @Test func readersAlwaysReceiveALiveValueWhileWritersReplaceIt() {
    let host = Host()
    let failures = Counter()
    let rounds = scaled(20_000)
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      for index in 0..<rounds {
        if thread == 0 {
          if index.isMultiple(of: 5) {
            Associations(of: host).removeValue(for: value)
          } else {
            Associations(of: host)[value] = Tracked(index)
          }
        } else if let read = Associations(of: host)[value] {
          // Handed back retained: it stays alive while held, whatever the writer does.
          if !read.isAlive || read.id < 0 { failures.increment() }
        }
      }
    }
    #expect(failures.value == 0)
  }

  @Test func aThrowingFactoryStoresNothing() {
    struct Failure: Error {}
    let host = Host()
    #expect(throws: Failure.self) {
      try Associations(of: host).value(for: value) { throw Failure() }
    }
    #expect(Associations(of: host)[value] == nil)
    #expect(Associations(of: host).keys.isEmpty)
  }
}
