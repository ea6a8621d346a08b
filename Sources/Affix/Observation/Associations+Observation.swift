extension Associations {
  /// Calls `onChange` after each change to the value stored under `key` on this host, in the
  /// isolation of the caller.
  ///
  /// `onChange` receives the new value (the key's default after a removal) and runs where the
  /// code that wrote it runs, as every callback of the library does (see ``IsolatedCallback``):
  /// - called on the main actor, `onChange` runs on the main actor: at once, inside the write,
  ///   when the write is made on the main queue and no earlier change waits to be delivered
  ///   there; otherwise enqueued on the main actor, after the write returns. It may touch
  ///   main-actor state. The main queue, not the main actor, is what runs it at once:
  ///   main-actor code inside another queue's `sync` block is on the main actor and off the
  ///   main queue, so a write it makes enqueues the call, which runs once that code has
  ///   returned to the main queue.
  /// - called on another actor, `onChange` runs on that actor, enqueued after the write.
  ///
  /// Code outside any actor has no isolation to hand over: the call is refused there, reported
  /// (see `CallerIsolation`), and returns a cancelled token. Such code observes with
  /// ``observe(_:initial:nonisolated:)``, whose `@Sendable` closure runs on a thread that writes. A
  /// `nonisolated(nonsending)` helper runs on its caller's actor, and observes there.
  ///
  /// The observer sees the key's values in the order they were stored, whichever threads
  /// stored them, one call at a time: a change is never delivered before one stored earlier,
  /// and `onChange` never runs concurrently with itself. Once the writes stop and the
  /// deliveries they queued have run, the last value the observer received is the stored one.
  /// An observer that falls behind (an actor busy elsewhere, a writer faster than `onChange`)
  /// keeps at most 256 changes waiting: past them, a change replaces the one waiting before
  /// it, so the observer skips values, never their order, and gets the newest, as
  /// `Observations` does. A change made inside `onChange` is delivered after it returns. An update that leaves an
  /// `Equatable` value equal is no change, and is not delivered (see ``update(_:_:)-1l2c9``).
  ///
  /// With `initial: true`, `onChange` first receives the value the key has now, as
  /// SwiftUI's `onChange(of:initial:)` does: before any change made after `observe` returns, in
  /// the same isolation, and at once when `observe` is called where it would run a change at
  /// once.
  ///
  /// The observation lasts while the returned token lives: cancel it, or drop it, to stop.
  /// Neither the token nor the observation retains the host, and the observation ends with the
  /// host. Do not capture the host strongly in `onChange`: the host would keep itself alive.
  ///
  /// Once `cancel()` returns (on any thread, however many cancel at once), `onChange` will not
  /// run again, including calls already enqueued on an actor, and is not running, with two
  /// exceptions. A cancel made inside `onChange` (or dropping the token there) returns at once
  /// and only ensures that no call starts after it: calls already running on other threads may
  /// still be finishing. And a cancel waits for a call running on another thread for 2 seconds
  /// at most: that call may be waiting for the cancelling thread (a nonisolated `onChange` that
  /// calls `DispatchQueue.main.sync` while the main thread cancels it, or that cancels its own
  /// token through it), which no wait would end. Past that, the cancel returns and reports a
  /// diagnostic; the call in flight finishes after it, and later cancels do not wait for it.
  /// So `onChange` should not wait for a thread that may cancel it.
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
  /// To read the values in a loop instead, use ``values(for:)``.
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
  /// The spelling for code that has no isolation to hand over (see
  /// `observe(_:_:)` for the rest, which is the same). `onChange` runs after the
  /// storage is unlocked: inside the write, or inside a write of another thread that was
  /// delivering an earlier change when this one was made, never concurrently with itself.
  /// It is `@Sendable`, as it runs away from the code that wrote it: the compiler refuses one
  /// that mutates that code's local state.
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
  /// The sequence starts with the value the key has when `values(for:)` is called (its default
  /// when nothing is attached), then delivers the value after each change. It keeps one value
  /// at most: when several changes happen while the reader is busy, it receives the newest
  /// and the ones in between are dropped, as a property shown on screen needs.
  ///
  /// The values arrive in the order they were stored, whichever threads stored them, so once
  /// writes stop the newest value the sequence holds is the stored one.
  ///
  /// It ends when the host dies, after delivering the last value written before the death
  /// (a host's values go once the library sees its death, at the next sweep: see
  /// <doc:MemoryAndThreads#When-values-are-released>; at once for an ``AssociationOwner``). It also ends when
  /// the task iterating it is cancelled: the observation stops at once, and the iterator then
  /// returns the value it still held, if any (one at most, as with any `AsyncStream`), then
  /// `nil`. Neither the sequence nor its iterator retains the host, and once the sequence ends
  /// or is dropped with its iterators, nothing of it is left on the host.
  ///
  /// ```swift
  /// for await selection in Associations(of: model).values(for: Selection.self) {
  ///   print("selected:", selection ?? "nothing")
  /// }
  /// // The model died, or the task was cancelled.
  /// ```
  ///
  /// Observation starts when this method is called, not when the iteration does: changes made
  /// in between are kept like any other (the newest of them). Like any `AsyncStream`, iterate it
  /// from one task.
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

  /// How many observations of `key` this host has: how a test tells that an observation ended.
  ///
  /// An observation counts from `observe` (or `values(for:)`) until its token is cancelled or
  /// dropped, its stream ends, or the host's values are released.
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
