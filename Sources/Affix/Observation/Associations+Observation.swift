extension Associations {
  /// Calls `onChange` after each change to the value stored under `key` on this host.
  ///
  /// The values must be `Sendable`: the callback runs on the thread that made the change, after the storage is unlocked, with
  /// the new value (the key's default after a removal). Changes made concurrently on several threads may be
  /// reported in either order.
  ///
  /// The observation lasts while the returned token lives: cancel it, or drop it, to stop.
  /// Neither the token nor the observation retains the host, and the observation ends with the
  /// host. Do not capture the host strongly in `onChange`: the host would keep itself alive.
  ///
  /// Once `cancel()` returns (on any thread, however many cancel at once), `onChange` is not
  /// running and will not run again. A cancel therefore waits for a call running on another
  /// thread: `onChange` must not wait for a thread that may cancel it. A cancel made inside
  /// `onChange` (or dropping the token there) returns at once and only ensures that no call
  /// starts after it: calls already running on other threads may still be finishing.
  ///
  /// ```swift
  /// let token = Associations(of: model).observe(Selection.self) { selection in
  ///   print("selected:", selection ?? "nothing")
  /// }
  /// ```
  public func observe<Key: AssociatedKey>(
    _ key: Key.Type, _ onChange: @escaping @Sendable (Key.Value) -> Void
  ) -> CancellationToken where Key.Value: Sendable {
    let storage = self.storage
    // Read here, in the caller's isolation, where the key's conformance may be used.
    let defaultValue = Key.defaultValue
    let observer = ObserverRegistration(keyID: KeyHandle(key).id) { payload in
      // Observers of this key are only ever notified with a `ValueBox<Key.Value>`.
      guard let payload else { return onChange(defaultValue) }
      onChange(unsafeDowncast(payload.storedObject, to: ValueBox<Key.Value>.self).value)
    }
    storage.addObserver(observer)
    // Both weak: the observation, and what its callback captures, end with the host's storage
    // (a call in flight keeps its observation alive until it returns).
    let weakStorage = WeakReference(storage)
    let weakObserver = WeakReference(observer)
    return CancellationToken(
      onCancel: {
        guard let observer = weakObserver.object else { return }
        observer.cancel()
        weakStorage.object?.removeObserver(observer)
      },
      // A cancel that finds the work already cancelled by another thread must not return
      // before that cancel would: it waits for the calls in flight too.
      onLaterCancel: { weakObserver.object?.cancel() })
  }

  /// How many cancels of observations of `key` on this host are waiting for a callback that
  /// runs on another thread, so that a test can tell that a cancel blocks.
  package func cancelsWaitingForCallbacks<Key: AssociatedKey>(of key: Key.Type) -> Int {
    guard let storage = existingStorage else { return 0 }
    let observers = storage.lock.withLock { storage.observersOf(KeyHandle(key).id) } ?? []
    return observers.reduce(0) { $0 + $1.waitingCancels }
  }
}
