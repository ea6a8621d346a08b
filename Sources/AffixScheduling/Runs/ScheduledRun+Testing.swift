extension ScheduledRun {
  /// How many tasks wait in ``finished()``, so that tests can wait for one to register.
  package var waiterCount: Int { waiters.count }
}
