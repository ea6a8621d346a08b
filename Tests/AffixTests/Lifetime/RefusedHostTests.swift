import AffixTestSupport
import Foundation
import Testing

@testable import Affix

/// Hosts that cannot carry values are refused with a diagnostic, as `Docs/Platforms.md`
/// promises, and a capability attached to one hears of its attachment before its end.
@Suite struct RefusedHostTests {
  enum TrackedValue: AssociatedKey { typealias Value = Tracked? }

  /// Swift values as Foundation bridges them on Linux: a new object per conversion, or the
  /// one `NSNull` every `nil` becomes.
  enum BridgedValue: CaseIterable, Sendable {
    case number, boolean, string, array, dictionary, date, null

    func make() -> AnyObject {
      switch self {
      case .number: 17 as AnyObject
      case .boolean: true as AnyObject
      case .string: "seventeen" as AnyObject
      case .array: [1, 7] as AnyObject
      case .dictionary: ["a": 1] as AnyObject
      case .date: Date(timeIntervalSince1970: 17) as AnyObject
      case .null: Int?.none as AnyObject
      }
    }
  }

  #if !canImport(ObjectiveC)
    @Test(arguments: BridgedValue.allCases)
    func bridgedFoundationValuesAreRefusedWithADiagnostic(kind: BridgedValue) {
      let lifetimes = Lifetimes()
      let log = DiagnosticLog()
      log.capture {
        let host = kind.make()
        guard case .unsupported = HostKind.of(host) else {
          Issue.record("\(type(of: host)) was not refused")
          return
        }
        Associations(of: host)[TrackedValue.self] = lifetimes.make()
        #expect(Associations(of: host)[TrackedValue.self] == nil)
      }
      #expect(lifetimes.alive == 0)
      #expect(log.count == 1)
      #expect(log.all.allSatisfy { $0.message.contains("cannot carry associated values") })
    }

    @Test func theSharedNullIsNamedAsShared() {
      let log = DiagnosticLog.capture {
        Associations(of: Int?.none as AnyObject)[TrackedValue.self] = Tracked()
      }
      #expect(log.messages.contains { $0.contains("NSNull") })
      let (first, second) = (Int?.none as AnyObject, String?.none as AnyObject)
      #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
    }

    @Test func objectsMadeOnPurposeStillCarryValues() {
      let host = NSMutableArray()
      if case .unsupported = HostKind.of(host) {
        Issue.record("an NSMutableArray made on purpose was refused")
      }
      Associations(of: host)[TrackedValue.self] = Tracked()
      #expect(Associations(of: host)[TrackedValue.self] != nil)
      Associations(of: host)[TrackedValue.self] = nil
    }
  #endif

  @Test func aCapabilityOnARefusedHostHearsItAttachedBeforeItEnded() {
    let witness = RefusedWitness()
    let made = RefusedWitness()
    _ = DiagnosticLog.capture {
      Associations(of: RefusedPair() as AnyObject).attach(witness)
      _ = Associations(of: RefusedPair() as AnyObject).capability(RefusedWitness.self) { made }
    }
    #expect(witness.events.values == ["attached", "ended: host died"])
    #expect(made.events.values == ["attached", "ended: host died"])
  }
}

/// A capability that records what it hears of its lifecycle.
private final class RefusedWitness: Capability {
  let events = Recording<String>()
  func didAttach(to host: AnyWeakReference) { events.append("attached") }
  func didEnd(_ ending: CapabilityEnding) { events.append("ended: \(ending)") }
}

/// A value, boxed afresh by every conversion to `AnyObject`.
private struct RefusedPair {
  var first = 1
  var second = 2
}
