extension LoadingController {
  /// How many `settled()` calls are waiting, so that tests can wait for one to register.
  package var finishedWaiterCount: Int { waiterCount }
}
