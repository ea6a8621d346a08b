import Affix
import AffixTestSupport
import Testing

/// `WeakReference` takes the path `HostKind` gives its object; `AFFIX_HOST_MODE=weak` sends
/// every object down the weak path, so these run on both paths.
@Suite struct WeakReferenceTests {
  /// An object that reads a reference to itself, made before, from its deinit.
  final class ReadsItselfInDeinit: Sendable {
    let seen: Recording<Bool>
    let reference = SanitizerVisibleLock<WeakReference<ReadsItselfInDeinit>?>(nil)
    init(seen: Recording<Bool>) { self.seen = seen }
    deinit { seen.append(reference.withLock { $0 }?.object == nil) }
  }

  @Test func aReferenceTakesThePathOfItsObjectsKind() {
    let host = Host()
    let reference = WeakReference(host)
    #expect(reference.isWeak == HostMode.isWeak)
    #expect((reference.pinnedAddress == nil) == HostMode.isWeak)
    #expect(AnyWeakReference(host).isWeak == HostMode.isWeak)
    #expect(reference.object === host)
  }

  @Test func onlyAPinnedReferenceTouchesItsObjectsReferenceCounts() {
    let host = Host()
    let strongBefore = _getRetainCount(host)
    let unownedBefore = _getUnownedRetainCount(host)
    let reference = WeakReference(host)
    #expect(_getUnownedRetainCount(host) == unownedBefore + (HostMode.isWeak ? 0 : 1))
    #expect(_getRetainCount(host) == strongBefore)
    withExtendedLifetime(reference) {}
  }

  @Test func aReferenceReadsNilOnceItsObjectsDeinitHasBegun() {
    let seen = Recording<Bool>()
    var reference: WeakReference<ReadsItselfInDeinit>
    do {
      let object = ReadsItselfInDeinit(seen: seen)
      reference = WeakReference(object)
      object.reference.withLock { $0 = reference }
      #expect(reference.object === object)
    }
    #expect(seen.values == [true])
    #expect(reference.object == nil)
    #expect(reference.description == "WeakReference(nil)")
  }

  @Test func aReferenceToNothingHoldsNothing() {
    let reference = WeakReference<Host>(nil)
    #expect(reference.object == nil)
    #expect(reference.pinnedAddress == nil)
    #expect(!reference.isWeak)
  }

  @Test func aValueBoxedAsAnObjectIsHeldWeaklyAndGoesWithItsBox() {
    // `HostKind` leaves such a box unsupported: it is never pinned, whatever the mode.
    struct Point { var x = 0 }
    let reference = WeakReference(Point() as AnyObject)
    #expect(reference.pinnedAddress == nil)
    #expect(reference.object == nil)
  }
}
