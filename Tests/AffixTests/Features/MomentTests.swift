import Affix
import AffixTestSupport
import Dispatch
import Testing

private enum Joined: HostMoment {}
private enum Shown: HostMoment {}

/// Work recorded for a host's moments: when it runs, in which order, how often, and what
/// becomes of it when it is cancelled or its host dies.
@Suite struct MomentTests {
  /// Records, on the thread that reaches, in order.
  final class Log: Sendable {
    private let entries = SanitizerVisibleLock<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  actor Stage {
    var log: [String] = []
    var tokens: [CancellationToken] = []

    func prepare(_ card: Host) {
      for name in ["a", "b", "c"] {
        Associations(of: card).whenReached(Joined.self) { self.log.append(name) }
      }
    }

    func reach(_ card: Host) -> Int { Associations(of: card).reach(Joined.self) }
  }

  @Test func workRunsOnceWhenTheMomentIsReachedInTheOrderRecorded() {
    let card = Host()
    let log = Log()
    for name in ["a", "b", "c"] {
      Associations(of: card).whenReached(Joined.self, nonisolated: { log.add(name) })
    }
    #expect(log.all.isEmpty)
    #expect(Associations(of: card).pendingWorkCount(for: Joined.self) == 3)
    #expect(Associations(of: card).reach(Joined.self) == 3)
    #expect(log.all == ["a", "b", "c"])
    #expect(Associations(of: card).pendingWorkCount(for: Joined.self) == 0)
    #expect(Associations(of: card).hasReached(Joined.self))
  }

  @Test func workRecordedWhileTheMomentIsReachedRunsAtOnce() {
    let card = Host()
    let log = Log()
    Associations(of: card).reach(Joined.self)
    Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("late") })
    #expect(log.all == ["late"])
  }

  @Test func onceWorkRunsOnceAndEveryTimeWorkRunsAtEveryReach() {
    let card = Host()
    let log = Log()
    Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("once") })
    Associations(of: card).whenReached(
      Joined.self, repeats: .everyTime, nonisolated: { log.add("every") })
    Associations(of: card).reach(Joined.self)
    Associations(of: card).leave(Joined.self)
    #expect(!Associations(of: card).hasReached(Joined.self))
    #expect(Associations(of: card).pendingWorkCount(for: Joined.self) == 1)
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["once", "every", "every"])
  }

  @Test func momentsAreApart() {
    let card = Host()
    let log = Log()
    Associations(of: card).whenReached(Shown.self, nonisolated: { log.add("shown") })
    Associations(of: card).reach(Joined.self)
    #expect(log.all.isEmpty)
    #expect(!Associations(of: card).hasReached(Shown.self))
  }

  @Test func workThatRecordsWorkRunsItInTheSameReachAfterNotInside() {
    let card = Host()
    let log = Log()
    Associations(of: card).whenReached(
      Joined.self,
      nonisolated: {
        log.add("first begins")
        Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("recorded inside") })
        log.add("first ends")
      })
    Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("second") })
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["first begins", "first ends", "second", "recorded inside"])
  }

  @Test func reachingAgainFromInsideItsOwnWorkIsReportedAndDoesNothing() {
    let card = Host()
    let log = Log()
    let reports = DiagnosticLog.capture {
      Associations(of: card).whenReached(
        Joined.self,
        nonisolated: {
          log.add("ran")
          #expect(Associations(of: card).reach(Joined.self) == 0)
        })
      Associations(of: card).reach(Joined.self)
    }
    #expect(log.all == ["ran"])
    #expect(reports.messages == ["reach(Joined) ignored: the Host has reached it and not left it"])
    #expect(reports.subsystems == ["moments"])
  }

  @Test func leavingAndReachingInsideAWorkRunsTheEveryTimeWorkAgainAfterIt() {
    let card = Host()
    let log = Log()
    let runs = Counter()
    Associations(of: card).whenReached(
      Joined.self, repeats: .everyTime,
      nonisolated: {
        runs.increment()
        log.add("every \(runs.value)")
        if runs.value == 1 {
          Associations(of: card).leave(Joined.self)
          Associations(of: card).reach(Joined.self)
          log.add("reached again")
        }
      })
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["every 1", "reached again", "every 2"])
  }

  @Test func leavingAMomentNotReachedIsReported() {
    let card = Host()
    let reports = DiagnosticLog.capture { Associations(of: card).leave(Joined.self) }
    #expect(reports.messages == ["leave(Joined) ignored: the Host has not reached it"])
  }

  @Test func cancelledWorkNeverRunsWhicheverThreadCancels() async {
    let card = Host()
    let log = Log()
    let token = Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("no") })
    Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("yes") })
    await Task.detached { token.cancel() }.value
    #expect(Associations(of: card).pendingWorkCount(for: Joined.self) == 1)
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["yes"])
  }

  @Test func aWorkCancelsOneDueAfterIt() {
    let card = Host()
    let log = Log()
    let later = SanitizerVisibleLock<CancellationToken?>(nil)
    Associations(of: card).whenReached(
      Joined.self,
      nonisolated: {
        log.add("first")
        later.withLock { $0 }?.cancel()
      })
    later.withLock {
      $0 = Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("second") })
    }
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["first"])
  }

  @Test func droppingTheTokenKeepsTheWork() {
    let card = Host()
    let log = Log()
    do {
      _ = Associations(of: card).whenReached(Joined.self, nonisolated: { log.add("kept") })
    }
    Associations(of: card).reach(Joined.self)
    #expect(log.all == ["kept"])
  }

  @Test func theHostsDeathDropsItsWorkUnrunAndReleasesWhatItCaptured() {
    final class Witness: Sendable {
      let released: Counter
      init(_ released: Counter) { self.released = released }
      deinit { released.increment() }
    }
    let released = Counter()
    let ran = Counter()
    do {
      let card = Host()
      let witness = Witness(released)
      Associations(of: card).whenReached(
        Joined.self,
        nonisolated: {
          _ = witness
          ran.increment()
        })
    }
    AssociationTable.sweep()
    #expect(released.value == 1)
    #expect(ran.value == 0)
  }

  /// A host that reaches a moment from its own `deinit`: the work recorded earlier runs, as at
  /// any reach, and sees the host gone; a first use of moments there records nothing.
  @Test func aHostReachingAMomentInItsDeinitRunsItsWorkAndNothingTraps() {
    final class Leaving: Sendable {
      let recordsFirst: Bool
      init(recordsFirst: Bool) { self.recordsFirst = recordsFirst }
      deinit {
        if !recordsFirst { Associations(of: self).reach(Joined.self) }
      }
    }
    let log = Log()
    do {
      let host = Leaving(recordsFirst: false)
      Associations(of: host).whenReached(
        Joined.self,
        nonisolated: { [weak host] in
          log.add(host == nil ? "ran, host gone" : "ran, host alive")
        })
    }
    // On the weak path with no deallocation hook (Linux), a host in its deinit cannot tell its
    // own entry from a dead predecessor's: it sees no values, so no moments either, and its
    // work is dropped unrun when the sweep releases its values.
    let expected = HostMode.isWeak ? [] : ["ran, host gone"]
    #expect(log.all == expected)
    AssociationTable.sweep()
    #expect(log.all == expected)
    // Never used before its deinit: the reach there finds nothing to run.
    _ = DiagnosticLog.capture { _ = Leaving(recordsFirst: false) }
    #expect(log.all == expected)
  }

  @Test func anActorsWorkRunsOnTheActorInTheOrderRecorded() async {
    let card = Host()
    let stage = Stage()
    await stage.prepare(card)
    // Reached elsewhere: the work is enqueued on the stage, in order.
    #expect(Associations(of: card).reach(Joined.self) == 3)
    #expect(await eventually { await stage.log == ["a", "b", "c"] })
    #expect(await stage.reach(card) == 0)
  }

  @Test func aHostTheCoreCannotServeIsRefusedWithACancelledToken() {
    struct Point {}
    let boxed = Point() as AnyObject
    var token: CancellationToken?
    let reports = DiagnosticLog.capture {
      token = Associations(of: boxed).whenReached(Joined.self, nonisolated: {})
      #expect(Associations(of: boxed).reach(Joined.self) == 0)
    }
    #expect(token?.isCancelled == true)
    #expect(reports.all.count == 2)
    #expect(reports.all.allSatisfy { $0.severity == .error && $0.subsystem == "moments" })
  }

  @Test func workRecordedOutsideAnyActorIsRefused() {
    final class Label {
      var text = ""
    }
    let card = Host()
    let label = Label()
    var token: CancellationToken?
    let reports = DiagnosticLog.capture {
      token = Associations(of: card).whenReached(Joined.self) { label.text = "joined" }
      Associations(of: card).reach(Joined.self)
    }
    #expect(token?.isCancelled == true)
    #expect(label.text == "")
    #expect(reports.messages == [CallerIsolation.refusal(of: "whenReached")])
  }
}
