import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

@Suite struct ObservationTests {
  enum Number: AssociatedKey { typealias Value = Int? }
  let number = Number.self
  enum Text: AssociatedKey { typealias Value = String? }
  let text = Text.self

  @Test func theObserverGetsEachNewValueInOrder() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(number, nonisolated: { seen.append($0) })
    Associations(of: host)[number] = 1
    Associations(of: host)[number] = 2
    Associations(of: host)[number] = nil
    Associations(of: host)[number] = 3
    _ = Associations(of: host).removeValue(for: number)
    _ = Associations(of: host).value(for: number) { 4 }
    _ = Associations(of: host).value(for: number) { 5 }
    #expect(seen.values == [1, 2, nil, 3, nil, 4])
    token.cancel()
  }

  @Test func theObserverSeesOnlyItsKeyAndHost() {
    let host = Host()
    let other = Host()
    let seen = Recording<String?>()
    let token = Associations(of: host).observe(text, nonisolated: { seen.append($0) })
    Associations(of: host)[number] = 1
    Associations(of: other)[text] = "other host"
    enum OtherText: AssociatedKey { typealias Value = String? }
    Associations(of: host)[OtherText.self] = "other key"
    Associations(of: host)[text] = "mine"
    #expect(seen.values == ["mine"])
    token.cancel()
  }

  @Test func removingAnAbsentValueNotifiesNothing() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(number, nonisolated: { seen.append($0) })
    Associations(of: host)[number] = nil
    _ = Associations(of: host).removeValue(for: number)
    #expect(seen.values.isEmpty)
    token.cancel()
  }

  @Test func cancellingStopsNotificationsAndIsIdempotent() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(number, nonisolated: { seen.append($0) })
    Associations(of: host)[number] = 1
    token.cancel()
    token.cancel()
    #expect(token.isCancelled)
    Associations(of: host)[number] = 2
    #expect(seen.values == [1])
  }

  @Test func cancellingFromOtherThreadsAtOnceStopsNotifications() {
    let host = Host()
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(number, nonisolated: { seen.append($0) })
    DispatchQueue.concurrentPerform(iterations: 8) { _ in token.cancel() }
    #expect(token.isCancelled)
    Associations(of: host)[number] = 1
    #expect(seen.values.isEmpty)
  }

  @Test func droppingTheTokenCancels() {
    let host = Host()
    let seen = Recording<Int?>()
    do {
      let token = Associations(of: host).observe(number, nonisolated: { seen.append($0) })
      Associations(of: host)[number] = 1
      withExtendedLifetime(token) {}
    }
    Associations(of: host)[number] = 2
    #expect(seen.values == [1])
  }

  @Test func anObservationNeverKeepsItsHostAlive() {
    weak var weakHost: Host?
    let lifetimes = Lifetimes()
    let token: CancellationToken
    do {
      let host = Host()
      weakHost = host
      let captured = lifetimes.make()
      token = Associations(of: host).observe(number, nonisolated: { _ in _ = captured })
      Associations(of: host)[number] = 1
    }
    #expect(isDeallocated { weakHost })
    // The observation ended with its host, token or not.
    #expect(sweepUntil { lifetimes.alive == 0 })
    #expect(!token.isCancelled)
    token.cancel()
    #expect(token.isCancelled)
  }

  @Test func cancellingReleasesTheObserver() {
    let host = Host()
    let lifetimes = Lifetimes()
    let token: CancellationToken
    do {
      let captured = lifetimes.make()
      token = Associations(of: host).observe(number, nonisolated: { _ in _ = captured })
    }
    #expect(lifetimes.alive == 1)
    token.cancel()
    #expect(lifetimes.alive == 0)
  }

  @Test func observersRunOutsideLocksAndMayUseTheStorage() {
    let host = Host()
    let number = self.number
    let text = self.text
    let seen = Recording<String>()
    let token = Associations(of: host).observe(
      number,
      nonisolated: { newValue in
        let read = Associations(of: host)[number]
        Associations(of: host)[text] = "saw \(newValue ?? -1), read \(read ?? -1)"
        seen.append(Associations(of: host)[text] ?? "")
        _ = Associations(of: host).keys
      })
    Associations(of: host)[number] = 1
    Associations(of: host)[number] = nil
    #expect(seen.values == ["saw 1, read 1", "saw -1, read -1"])
    token.cancel()
  }

  @Test func anObserverMayCancelItself() {
    let host = Host()
    let seen = Recording<Int?>()
    let holder = SanitizerVisibleLock<CancellationToken?>(nil)
    let token = Associations(of: host).observe(
      number,
      nonisolated: { newValue in
        seen.append(newValue)
        holder.withLock { $0 }?.cancel()
      })
    holder.withLock { $0 = token }
    Associations(of: host)[number] = 1
    Associations(of: host)[number] = 2
    #expect(seen.values == [1])
    holder.withLock { $0 = nil }
  }

  @Test func severalObserversOfOneKeyAllRun() {
    let host = Host()
    let seen = Recording<String>()
    let first = Associations(of: host).observe(
      number, nonisolated: { seen.append("first \($0 ?? 0)") })
    let second = Associations(of: host).observe(
      number, nonisolated: { seen.append("second \($0 ?? 0)") })
    Associations(of: host)[number] = 1
    first.cancel()
    Associations(of: host)[number] = 2
    #expect(Set(seen.values) == ["first 1", "second 1", "second 2"])
    second.cancel()
  }

  @Test func weakValuesAreObservedToo() {
    let host = Host()
    enum TheKey: AssociatedKey {
      typealias Value = Tracked?
      static let policy = AssociationPolicy.weak
    }
    let key = TheKey.self
    let seen = Recording<Int?>()
    let token = Associations(of: host).observe(key, nonisolated: { seen.append($0?.id) })
    let tracked = Tracked(8)
    Associations(of: host)[key] = tracked
    Associations(of: host)[key] = nil
    #expect(seen.values == [8, nil])
    token.cancel()
  }
}
