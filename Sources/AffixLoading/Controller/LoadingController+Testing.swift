extension LoadingController {
  /// How many `finished()` calls are waiting, so that tests can wait for one to register.
  package var finishedWaiterCount: Int { waiterCount }
}
