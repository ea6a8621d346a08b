extension Associations {
  /// Calls `onChange` after each change to the value stored under `key` on this host, in the
  /// isolation of the caller.
  ///
  /// Called on an actor, `onChange` runs on it, once per change, in the order the values were
  /// stored; code outside any actor is refused and uses ``observe(_:initial:nonisolated:)``. The
  /// observation never retains the host; it ends with the host or when its token is cancelled or
  /// dropped. See <doc:ObservingValues#How-observe-delivers>.
  ///
  /// ```swift
  /// @MainActor final class SelectionLabel {
  ///   var text = ""
  ///   var token: CancellationToken?
  ///
  ///   func watch(_ model: Model) {
  ///     // Made on the main actor: runs there, whichever thread selects.
  ///     token = Associations(of: model).observe(Selection.self) { [weak self] selection in
  ///       self?.text = selection ?? "nothing"
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether `onChange` first receives the current value.
  ///   - isolation: Where `onChange` runs: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  ///   - onChange: Receives each new value.
  /// - Returns: The token that ends the observation when cancelled or dropped.
  public func observe<Key: AssociatedKey>(
    _ key: Key.Type, initial: Bool = false, isolation: isolated (any Actor)? = #isolation,
    fileID: String = #fileID, line: Int = #line, _ onChange: @escaping (Key.Value) -> Void
  ) -> CancellationToken where Key.Value: Sendable {
    guard
      CallerIsolation.required(
        isolation, by: "observe", subsystem: "Affix", fileID: fileID, line: line) != nil
    else { return .cancelled() }
    return observe(key, initial: initial, unchecked: isolation, onChange)
  }

  /// Calls `onChange`, which asks for no isolation, after each change to the value stored
  /// under `key` on this host, on a thread that writes the key.
  ///
  /// The spelling for code that has no isolation to hand over; `onChange` is `@Sendable` and never
  /// runs concurrently with itself. See <doc:ObservingValues#Where-the-observer-runs>.
  ///
  /// ```swift
  /// let changes = Counter()  // Sendable
  /// let token = Associations(of: model).observe(Selection.self, nonisolated: { _ in
  ///   changes.add(1)
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether `onChange` first receives the current value, on the calling thread.
  ///   - onChange: Receives each new value.
  /// - Returns: The token that ends the observation when cancelled or dropped.
  @_disfavoredOverload
  public func observe<Key: AssociatedKey>(
    _ key: Key.Type, initial: Bool = false,
    nonisolated onChange: @escaping @Sendable (Key.Value) -> Void
  ) -> CancellationToken where Key.Value: Sendable {
    observe(key, initial: initial, unchecked: nil, onChange)
  }

  /// The two spellings' common body: `onChange` runs in `isolation`, which the caller vouches
  /// for, first with the current value when `initial`.
  private func observe<Key: AssociatedKey>(
    _ key: Key.Type, initial: Bool, unchecked isolation: (any Actor)?,
    _ onChange: @escaping (Key.Value) -> Void
  ) -> CancellationToken where Key.Value: Sendable {
    // Read here, in the caller's isolation, where the key's conformance may be used.
    let defaultValue = Key.defaultValue
    let observer = ObserverRegistration(keyID: KeyHandle(key).id, isolation: isolation) {
      payload in
      // Observers of this key are only ever notified with a `ValueBox<Key.Value>`.
      guard let payload else { return onChange(defaultValue) }
      onChange(unsafeDowncast(payload.storedObject, to: ValueBox<Key.Value>.self).value)
    }
    let (token, firstTurn) = register(observer, takingFirstTurn: initial)
    if let firstTurn {
      // As `values(for:)` does: the current value takes the turn the observer was added with,
      // so it comes before every change made after, and read now it is at least that new.
      observer.call(Payload(ValueBox(self[key])), inTurn: firstTurn)
    }
    return token
  }

  /// The values stored under `key` on this host, as an asynchronous sequence: the current one,
  /// then the value after each change, the newest only when the reader falls behind.
  ///
  /// The sequence ends when the host dies or the iterating task is cancelled, and never retains the
  /// host. See <doc:ObservingValues#How-the-values-sequence-delivers>.
  ///
  /// ```swift
  /// for await selection in Associations(of: model).values(for: Selection.self) {
  ///   print("selected:", selection ?? "nothing")
  /// }
  /// // The model died, or the task was cancelled.
  /// ```
  ///
  /// - Parameter key: The key whose values to deliver.
  /// - Returns: A sequence of the key's values, ending with the host.
  public func values<Key: AssociatedKey>(for key: Key.Type) -> AsyncStream<Key.Value>
  where Key.Value: Sendable {
    let (values, continuation) = AsyncStream.makeStream(
      of: Key.Value.self, bufferingPolicy: .bufferingNewest(1))
    let end = EndOfValues(continuation)
    let defaultValue = Key.defaultValue
    // Nonisolated: it only hands the value to the stream, which wakes the reader in its own
    // isolation. Its closure holds `end`, whose release with the host's storage ends the stream
    // after every value written before.
    let observer = ObserverRegistration(keyID: KeyHandle(key).id, isolation: nil) { payload in
      guard let payload else {
        end.yield(defaultValue)
        return
      }
      end.yield(unsafeDowncast(payload.storedObject, to: ValueBox<Key.Value>.self).value)
    }
    let (token, firstTurn) = register(observer, takingFirstTurn: true)
    // The first value takes the turn the observer was added with: it is delivered before every
    // change made after that, whichever thread makes it. Read after the observer is in place,
    // it is at least as new as that turn; any later change is delivered after it, so the last
    // value delivered is the last stored.
    let first = self[key]
    observer.call(Payload(ValueBox(first)), inTurn: firstTurn!)
    continuation.onTermination = { _ in token.cancel() }
    return values
  }

  /// Adds `observer` to the host's storage, and returns the token that removes it, with the
  /// observer's first turn when asked (see `AssociationStorage.addObserver(_:takingFirstTurn:)`).
  private func register(
    _ observer: ObserverRegistration, takingFirstTurn: Bool
  ) -> (token: CancellationToken, firstTurn: UInt64?) {
    let storage = self.storage
    let firstTurn = storage.addObserver(observer, takingFirstTurn: takingFirstTurn)
    // Both weak: the observation, and what its callback captures, end with the host's storage
    // (a call in flight keeps its observation alive until it returns).
    let weakStorage = WeakReference(unidentified: storage)
    let weakObserver = WeakReference(unidentified: observer)
    let token = CancellationToken(
      onCancel: {
        guard let observer = weakObserver.object else { return }
        observer.cancel()
        weakStorage.object?.removeObserver(observer)
      },
      // A cancel that finds the work already cancelled by another thread must not return
      // before that cancel would: it waits for the calls in flight too.
      onLaterCancel: { weakObserver.object?.cancel() })
    return (token, firstTurn)
  }

  /// How many cancels of observations of `key` on this host are waiting for a callback that
  /// runs on another thread, so that a test can tell that a cancel blocks.
  package func cancelsWaitingForCallbacks<Key: AssociatedKey>(of key: Key.Type) -> Int {
    guard let storage = existingStorage else { return 0 }
    let observers = storage.lock.withLock { storage.observersOf(KeyHandle(key).id) } ?? []
    return observers.reduce(0) { $0 + $1.waitingCancels }
  }

  /// The calls waiting for each observer of `key` on this host, now and at most, so that a
  /// test or a benchmark can see the bound of a slow observer's backlog hold.
  package func observerBacklogs<Key: AssociatedKey>(of key: Key.Type) -> [Backlog] {
    guard let storage = existingStorage else { return [] }
    let observers = storage.lock.withLock { storage.observersOf(KeyHandle(key).id) } ?? []
    return observers.map(\.notify.backlog)
  }

  /// The most changes that wait for one observer (see `observe(_:_:)`).
  package static var observerBacklogBound: Int { ObserverRegistration.backlogBound }

  /// How many observations of `key` this host has: how a test tells that an observation ended
  /// (<doc:ObservingValues#When-an-observation-ends>).
  ///
  /// ```swift
  /// token.cancel()
  /// #expect(Associations(of: model).observerCount(of: Selection.self) == 0)
  /// ```
  ///
  /// - Parameter key: The key whose observations to count.
  /// - Returns: The number of observations of `key` on this host.
  public func observerCount<Key: AssociatedKey>(of key: Key.Type) -> Int {
    guard let storage = existingStorage else { return 0 }
    return storage.lock.withLock { storage.observersOf(KeyHandle(key).id)?.count ?? 0 }
  }
}

/// The end of a sequence of ``Associations/values(for:)``: held by its observer alone, so that
/// it is released with the observer, when the host's storage goes or the observation is
/// cancelled, and finishes the stream then. A finished stream still delivers the value it holds.
private final class EndOfValues<Element: Sendable>: Sendable {
  private let continuation: AsyncStream<Element>.Continuation

  init(_ continuation: AsyncStream<Element>.Continuation) {
    self.continuation = continuation
  }

  func yield(_ value: Element) {
    continuation.yield(value)
  }

  deinit {
    continuation.finish()
  }
}
