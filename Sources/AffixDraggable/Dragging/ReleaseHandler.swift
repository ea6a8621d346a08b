import Affix
import Foundation

/// A release handler, bound to the isolation it was written in.
final class ReleaseHandler: Sendable {
  private let body: IsolationBound<(DragRelease) -> DragRelease.Decision>

  init(
    decide: @escaping (DragRelease) -> DragRelease.Decision,
    isolation: isolated (any Actor)? = #isolation
  ) {
    body = IsolationBound(decide)
  }

  /// Decides at once when `caller` is the handler's isolation; `nil` elsewhere.
  func decide(_ release: DragRelease, from caller: isolated (any Actor)?) -> DragRelease.Decision? {
    // Read out of the bound first: the handler may call back into this controller (another
    // drag, its snap points), or into another card whose handler calls this one.
    guard let decide = body.value(isolation: caller) else { return nil }
    return decide(release)
  }

  /// Decides on the handler's isolation, then hands the decision to `act` there.
  func later(
    _ release: DragRelease, _ act: @escaping @Sendable (DragRelease.Decision) -> Void
  ) {
    IsolatedCallback<DragRelease>(on: body.isolation) { [body] isolation, release in
      if let decide = body.value(isolation: isolation) { act(decide(release)) }
    }(release)
  }
}
