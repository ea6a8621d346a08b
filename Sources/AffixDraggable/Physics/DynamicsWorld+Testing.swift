extension DynamicsWorld {
  /// How many `settled()` calls are waiting, so that tests can wait for one to register.
  package var settledWaiterCount: Int { state.withLock { $0.restWaiters.count } }
}
