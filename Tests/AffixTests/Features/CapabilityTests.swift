import Affix
import AffixTestSupport
import Dispatch
import Synchronization
import Testing

@Suite struct CapabilityTests {
  @Test func anAttachedCapabilityIsFoundByItsType() {
    let host = Host()
    #expect(Associations(of: host).capability(Recorder.self) == nil)
    let recorder = Associations(of: host).attach(Recorder(1))
    #expect(Associations(of: host).capability(Recorder.self) === recorder)
    #expect(Associations(of: host).capability(Marker.self) == nil)
    #expect(Associations(of: Host()).capability(Recorder.self) == nil)
  }

  @Test func detachingCallsDidDetachOnceAndReturnsTheCapability() {
    let host = Host()
    let recorder = Associations(of: host).attach(Recorder())
    #expect(Associations(of: host).removeCapability(Recorder.self) === recorder)
    #expect(recorder.detachments == 1)
    #expect(Associations(of: host).removeCapability(Recorder.self) == nil)
    #expect(recorder.detachments == 1)
    #expect(Associations(of: host).capability(Recorder.self) == nil)
    #expect(Associations(of: host).capabilities.isEmpty)
  }

  @Test func attachingReplacesAndDetachesTheOldOneOnce() {
    let host = Host()
    let old = Associations(of: host).attach(Recorder(1))
    let new = Associations(of: host).attach(Recorder(2))
    #expect(old.detachments == 1)
    #expect(new.detachments == 0)
    #expect(Associations(of: host).capability(Recorder.self) === new)
    #expect(Associations(of: host).capabilities.count == 1)
  }

  @Test func reattachingTheSameInstanceDoesNotDetachIt() {
    let host = Host()
    let recorder = Associations(of: host).attach(Recorder())
    Associations(of: host).attach(recorder)
    #expect(recorder.detachments == 0)
    #expect(Associations(of: host).capability(Recorder.self) === recorder)
  }

  @Test func capabilityOrAttachMakesOnlyWhenMissing() {
    let host = Host()
    let made = Counter()
    let first = Associations(of: host).capability(Recorder.self) {
      made.increment()
      return Recorder(1)
    }
    let second = Associations(of: host).capability(Recorder.self) {
      made.increment()
      return Recorder(2)
    }
    #expect(first === second)
    #expect(first.id == 1)
    #expect(made.value == 1)
  }

  @Test func racingCapabilityOrAttachHasOneWinnerAndDetachesTheLosers() {
    for _ in 0..<20 {
      let host = Host()
      let made = Recording<Recorder>()
      let got = Recording<Recorder>()
      let arrivals = Atomic<Int>(0)
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        let capability = Associations(of: host).capability(Recorder.self) {
          arrivals.add(1, ordering: .relaxed)
          waitBriefly(until: { arrivals.load(ordering: .relaxed) >= 2 })
          let recorder = Recorder(index)
          made.append(recorder)
          return recorder
        }
        got.append(capability)
      }
      let winner = Associations(of: host).capability(Recorder.self)
      #expect(got.values.allSatisfy { $0 === winner })
      for recorder in made.values {
        #expect(recorder.detachments == (recorder === winner ? 0 : 1))
      }
      #expect(Associations(of: host).capabilities.count == 1)
    }
  }

  @Test func hostDeathReleasesCapabilities() {
    let released = Flag()
    do {
      let host = Host()
      Associations(of: host).attach(Recorder { released.set() })
      Associations(of: host).attach(Marker())
    }
    #expect(sweepUntil { released.isSet })
  }

  @Test func capabilitiesAreListedByTypeName() {
    let host = Host()
    Associations(of: host).attach(Recorder())
    let names = Associations(of: host).keys.compactMap(\.name)
    #expect(names.count == 1)
    #expect(names.first?.contains("Recorder") == true)
  }

  @Test func attachingIsObservableThroughTheValueBeingAvailable() {
    let host = Host()
    let seen = Recording<Bool>()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      Associations(of: host).attach(Marker())
      seen.append(Associations(of: host).capability(Marker.self) != nil)
    }
    #expect(seen.values == [true, true, true, true])
  }
}

/// Spins, yielding, until `condition` holds or a bounded number of rounds pass, so that racing
/// threads overlap when they can without ever deadlocking when they cannot.
func waitBriefly(until condition: () -> Bool) {
  var rounds = 0
  while !condition() && rounds < 20_000 {
    rounds += 1
    yieldThread()
  }
}
