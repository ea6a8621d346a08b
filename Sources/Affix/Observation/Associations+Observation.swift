extension Associations {
  /// Calls `onChange` after each change to the value stored under `key` on this host.
  ///
  /// The callback runs on the thread that made the change, after the storage is unlocked, with
  /// the new value (`nil` after a removal). Changes made concurrently on several threads may be
  /// reported in either order.
  ///
  /// The observation lasts while the returned token lives: cancel it, or drop it, to stop.
  /// Neither the token nor the observation retains the host, and the observation ends with the
  /// host. Do not capture the host strongly in `onChange`: the host would keep itself alive.
  ///
  /// ```swift
  /// let token = Associations(of: model).observe(selectionKey) { selection in
  ///   print("selected:", selection ?? "nothing")
  /// }
  /// ```
  public func observe<Value>(
    _ key: AssociatedKey<Value>, _ onChange: @escaping @Sendable (Value?) -> Void
  ) -> CancellationToken {
    observe(keyID: key.id, onChange)
  }

  func observe<Value>(keyID: UInt, _ onChange: @escaping @Sendable (Value?) -> Void)
    -> CancellationToken
  {
    let storage = self.storage
    let id = storage.addObserver(for: keyID) { payload in
      // Observers of this key are only ever notified with a `ValueBox<Value>`.
      onChange(payload.map { unsafeDowncast($0.storedObject, to: ValueBox<Value>.self).value })
    }
    let weakStorage = WeakReference(storage)
    return CancellationToken {
      weakStorage.object?.removeObserver(id)
    }
  }
}
