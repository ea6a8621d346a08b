extension DynamicsWorld {
  /// How many `settled()` calls are waiting, so that tests can wait for one to register.
  package var settledWaiterCount: Int {
    state.withLock { Array($0.restWaiters.values) }.reduce(0) { $0 + $1.count }
  }
}
