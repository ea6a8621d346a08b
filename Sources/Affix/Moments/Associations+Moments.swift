/// The key the moments of a host are kept under.
private enum Moments: AssociatedKey, HiddenKey {
  static var defaultValue: MomentBook? { nil }
}

extension Associations {
  /// Records `work` to run when the host reaches `moment`, in the caller's isolation; at once
  /// when the moment is reached now.
  ///
  /// The work lives with the host, not the token: cancel the token to drop it unrun. Outside any
  /// actor, use ``whenReached(_:repeats:nonisolated:)``. See <doc:DraftsAndMoments#When-work-runs>
  /// and <doc:DraftsAndMoments#What-becomes-of-work>.
  ///
  /// ```swift
  /// enum JoinedStage: HostMoment {}
  ///
  /// @MainActor func pinToStage(_ card: Card) {
  ///   Associations(of: card).whenReached(JoinedStage.self) { [weak card] in
  ///     card?.frame.origin = card?.stage?.center ?? .zero  // on the main actor
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - moment: The moment to wait for.
  ///   - repeats: Whether the work runs at the next reach only, or at every reach.
  ///   - isolation: Where the work runs: the caller's isolation unless given.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  ///   - work: The work; it may call back into the library, record more work among them.
  /// - Returns: A token that cancels the work, already detached from its own life.
  @discardableResult
  public func whenReached<Moment: HostMoment>(
    _ moment: Moment.Type, repeats: MomentRepetition = .once,
    isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line,
    _ work: @escaping () -> Void
  ) -> CancellationToken {
    guard
      let owner = CallerIsolation.required(
        isolation, by: "whenReached", subsystem: MomentsReport.subsystem, fileID: fileID,
        line: line)
    else { return .cancelled() }
    guard let book = book(for: "whenReached(\(Moment.self))", fileID: fileID, line: line) else {
      return .cancelled()
    }
    let lane = book.lane(for: isolation, key: ObjectIdentifier(owner))
    let id = book.nextID()
    lane.keep(work, as: id, isolation: isolation)
    return record(id, in: lane, of: book, moment: moment, repeats: repeats)
  }

  /// Records `work`, which asks for no isolation, to run when the host reaches `moment`.
  ///
  /// The work runs on the thread that reaches the moment: the spelling for code outside any
  /// actor; otherwise as ``whenReached(_:repeats:isolation:fileID:line:_:)``.
  ///
  /// ```swift
  /// let joined = Counter()  // Sendable
  /// Associations(of: node).whenReached(JoinedStage.self, nonisolated: { joined.add(1) })
  /// ```
  ///
  /// - Parameters:
  ///   - moment: The moment to wait for.
  ///   - repeats: Whether the work runs at the next reach only, or at every reach.
  ///   - work: The work, run on the thread that reaches the moment.
  /// - Returns: A token that cancels the work, already detached from its own life.
  @_disfavoredOverload @discardableResult
  public func whenReached<Moment: HostMoment>(
    _ moment: Moment.Type, repeats: MomentRepetition = .once,
    nonisolated work: @escaping @Sendable () -> Void
  ) -> CancellationToken {
    guard let book = book(for: "whenReached(\(Moment.self))", fileID: #fileID, line: #line) else {
      return .cancelled()
    }
    let lane = book.nonisolatedLane()
    let id = book.nextID()
    lane.keep(sendable: work, as: id)
    return record(id, in: lane, of: book, moment: moment, repeats: repeats)
  }

  /// The host reaches `moment`: every piece of work waiting for it runs, in order, where it was
  /// recorded.
  ///
  /// Reaching a moment reached and not left does nothing and is reported. See
  /// <doc:DraftsAndMoments#When-work-runs>.
  ///
  /// ```swift
  /// func add(_ card: Card) {
  ///   cards.append(card)
  ///   Associations(of: card).reach(JoinedStage.self)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - moment: The moment reached.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  /// - Returns: How many pieces of work were started or enqueued.
  @discardableResult
  public func reach<Moment: HostMoment>(
    _ moment: Moment.Type, fileID: String = #fileID, line: Int = #line
  ) -> Int {
    guard let book = book(for: "reach(\(Moment.self))", fileID: fileID, line: line) else {
      return 0
    }
    guard let (due, drains) = book.reach(ObjectIdentifier(moment)) else {
      MomentsReport.report(
        "reach(\(Moment.self)) ignored: the \(type(of: host)) has reached it and not left it",
        fileID: fileID, line: line)
      return 0
    }
    if drains { book.drain() }
    return due
  }

  /// The host leaves `moment`: work recorded from now on waits for the next reach, where work
  /// that runs at every reach runs again; leaving a moment not reached is reported.
  ///
  /// ```swift
  /// func remove(_ card: Card) {
  ///   Associations(of: card).leave(JoinedStage.self)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - moment: The moment left.
  ///   - fileID: The caller's file, for a report.
  ///   - line: The caller's line, for a report.
  public func leave<Moment: HostMoment>(
    _ moment: Moment.Type, fileID: String = #fileID, line: Int = #line
  ) {
    guard let book = existingBook, book.leave(ObjectIdentifier(moment)) else {
      return MomentsReport.report(
        "leave(\(Moment.self)) ignored: the \(type(of: host)) has not reached it",
        fileID: fileID, line: line)
    }
  }

  /// Whether the host has reached `moment` and not left it since.
  ///
  /// - Parameter moment: The moment.
  /// - Returns: `true` between a ``reach(_:fileID:line:)`` and the next ``leave(_:fileID:line:)``.
  public func hasReached<Moment: HostMoment>(_ moment: Moment.Type) -> Bool {
    existingBook?.isReached(ObjectIdentifier(moment)) ?? false
  }

  /// How many pieces of work wait for `moment`: not yet run and not cancelled, and every piece
  /// that runs at every reach. For tests.
  ///
  /// - Parameter moment: The moment.
  /// - Returns: The number of pieces of work recorded for `moment` and still to run.
  public func pendingWorkCount<Moment: HostMoment>(for moment: Moment.Type) -> Int {
    existingBook?.pendingCount(ObjectIdentifier(moment)) ?? 0
  }

  private var existingBook: MomentBook? {
    self[Moments.self]
  }

  /// The host's book, made on first use; `nil`, reported, for a host the core cannot serve.
  private func book(for call: String, fileID: String, line: Int) -> MomentBook? {
    if case .unsupported(let reason) = Engine.kind(of: host) {
      MomentsReport.report(
        "\(call) ignored: a \(type(of: host)) cannot carry moments (\(reason))",
        severity: .error, fileID: fileID, line: line)
      return nil
    }
    return value(for: Moments.self) { MomentBook() }
  }

  private func record<Moment: HostMoment>(
    _ id: UInt64, in lane: Lane, of book: MomentBook, moment: Moment.Type,
    repeats: MomentRepetition
  ) -> CancellationToken {
    let drains = book.record(ObjectIdentifier(moment), repeats, in: lane, id: id)
    if drains { book.drain() }
    let token = CancellationToken { [weak book] in
      guard let lane = book?.cancel(id) else { return }
      lane.drop(id)
    }
    token.detach()
    return token
  }
}

/// Reports of the moments' misuse.
enum MomentsReport {
  static let subsystem = "moments"

  static func report(
    _ message: String, severity: Diagnostic.Severity = .warning, fileID: String, line: Int
  ) {
    Diagnostics.report(
      subsystem: subsystem, message: message, severity: severity, fileID: fileID, line: line)
  }
}
