import AffixTesting
import Foundation
import Testing

/// A node that keeps itself alive.
final class DeliberatelyLeakedNode {
  var itself: DeliberatelyLeakedNode?
}

/// Proves the gate: `.ci/leak-check-selftest.sh` sets `AFFIX_DELIBERATE_LEAK` and expects
/// `swift package leak-check` to fail with a report naming ``DeliberatelyLeakedNode``. Off in
/// every ordinary run.
@Test(
  .tags(.leakCheck),
  .enabled(
    if: ProcessInfo.processInfo.environment["AFFIX_DELIBERATE_LEAK"] != nil,
    "leaks on purpose; set AFFIX_DELIBERATE_LEAK to prove that leak-check catches it"))
func aDeliberateLeakFailsTheLeakCheck() {
  expectNoLeaks { tracker in
    let node = DeliberatelyLeakedNode()
    node.itself = node
    tracker.track(node, "deliberate")
  }
}
