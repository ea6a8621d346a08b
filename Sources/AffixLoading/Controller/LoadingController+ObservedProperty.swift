extension LoadingController {
  /// A public property that Observation tracks, and the key path it is tracked under.
  enum PublicProperty: Int, CaseIterable {
    case state, nestingDepth, message, progress, outcome

    /// What each property is read from and named by: the one place that pairs them.
    private static let fields: [Field] = allCases.map { property in
      switch property {
      case .state: Field(\.state, \.phase)
      case .nestingDepth: Field(\.nestingDepth, \.depth)
      case .message: Field(\.message, \.message)
      case .progress: Field(\.progress, \.progress)
      case .outcome: Field(\.outcome, \.outcome)
      }
    }

    static func changes(from old: LoadingStateMachine, to new: LoadingStateMachine)
      -> [PublicProperty]
    {
      allCases.filter { fields[$0.rawValue].differs(old, new) }
    }

    func willSet(of controller: LoadingController) {
      Self.fields[rawValue].willSet(controller)
    }

    func didSet(of controller: LoadingController) {
      Self.fields[rawValue].didSet(controller)
    }

    /// A public property's key path with the state it reads, and the registrar's calls for it.
    private struct Field: Sendable {
      let differs: @Sendable (LoadingStateMachine, LoadingStateMachine) -> Bool
      let willSet: @Sendable (LoadingController) -> Void
      let didSet: @Sendable (LoadingController) -> Void

      init<Member: Sendable, Value: Equatable & Sendable>(
        _ property: any KeyPath<LoadingController, Member> & Sendable,
        _ stored: any KeyPath<LoadingStateMachine, Value> & Sendable
      ) {
        differs = { $0[keyPath: stored] != $1[keyPath: stored] }
        willSet = { $0.observation.willSet($0, keyPath: property) }
        didSet = { $0.observation.didSet($0, keyPath: property) }
      }
    }
  }
}
