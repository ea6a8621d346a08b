import AffixScheduling
import Testing

@Test func instantArithmeticRoundTrips() {
  let start = SchedulingInstant(sinceEpoch: .seconds(2))
  let later = start + .milliseconds(250)
  #expect(later.sinceEpoch == .milliseconds(2250))
  #expect(later - start == .milliseconds(250))
  #expect(start - later == .milliseconds(-250))
  #expect(start.duration(to: later) == .milliseconds(250))
  #expect(start.advanced(by: .seconds(-2)) == .zero)
  #expect(start < later)
}

@Test func instantDescriptionShowsElapsedTime() {
  #expect(SchedulingInstant(sinceEpoch: .seconds(1)).description == "t+1.0 seconds")
}
