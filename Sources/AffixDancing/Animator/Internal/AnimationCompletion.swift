/// A handler told where an animation ended, with the wait for the call to have run where the
/// handler was written: `ended()` returns only after it.
package struct AnimationCompletion: Sendable {
  private let call: @Sendable (AnimatingPosition) -> Void
  private let wait: @Sendable () async -> Void

  /// A handler that runs `call`; `delivered` returns once the calls made so far have run.
  package init(
    delivered: @escaping @Sendable () async -> Void = {},
    _ call: @escaping @Sendable (AnimatingPosition) -> Void
  ) {
    self.call = call
    self.wait = delivered
  }

  package func callAsFunction(_ position: AnimatingPosition) {
    call(position)
  }

  /// Returns once the calls made so far have run where the handler was written.
  package func delivered() async {
    await wait()
  }
}
