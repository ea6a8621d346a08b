import Affix
import AffixScheduling
import Synchronization

// The dancer's state: the groups of one host, their records and chains, and what a call
// collects under the lock to do after it.
extension Dancer {
  struct ChainLink: Sendable {
    /// What the link's animation is, apart from its tracks.
    struct Settings: Sendable {
      let duration: Double
      let timing: TimingParameters
      var completions: [AnimationCompletion] = []
      var repeatCount: Int? = 1
      var autoreverses = false
      var pausesOnCompletion = false
      var scrubsLinearly = true
      var isReversed = false
    }

    var settings: Settings
    /// Records the link's tracks and installs them in its group with
    /// `Dancer.install(_:tracks:group:on:)`, in the isolation its block was written in.
    let begin: IsolatedCallback<(Dancer, Int, Settings)>
  }

  /// A dancer's state under its lock. `withLock` is inlinable, so every use of it, the
  /// frame's among them, is specialized and inlined.
  typealias StateLock = LockedState<State>

  /// Where the host's properties are written, decided when an animation is declared rather
  /// than on every frame. A byte, beside the lock the frame takes; the actor itself is kept
  /// apart (`State.actor`).
  enum HostIsolation: UInt8 {
    /// No animation has been declared yet, so no frame runs: the state's first value.
    case undeclared
    /// The main actor: on the main queue.
    case mainActor
    /// Another actor: always enqueued there.
    case other

    init(_ isolation: any Actor) {
      self = isolation === MainActor.shared ? .mainActor : .other
    }
  }

  /// One animation and those chained after it with `then`: it animates its own properties,
  /// independently of the host's other groups, and ends on its own.
  @dynamicMemberLookup
  struct Group: Sendable {
    /// Names the group for the handles that address it: the tag of its first animation.
    let id: Int
    /// The current animation; nil only while a chained one begins on its own isolation.
    var engine: AnimationEngine?
    /// What the frame never reads, behind one reference, so that a dancer's state (the first
    /// group inline) stays small: ten thousand of them share the caches and the TLB.
    private let record: GroupRecord

    init(id: Int, engine: AnimationEngine? = nil, tag: Int, declaredAt: CallSite) {
      self.id = id
      self.engine = engine
      record = GroupRecord(tag: tag, declaredAt: declaredAt)
    }

    /// The record's fields, read and written as the group's own: `group.tag`.
    subscript<Value>(dynamicMember field: ReferenceWritableKeyPath<GroupRecord, Value>) -> Value
    {
      get { record[keyPath: field] }
      nonmutating set { record[keyPath: field] = newValue }
    }

    /// The record's constant fields: `group.waiters`, `group.declaredAt`.
    subscript<Value>(dynamicMember field: KeyPath<GroupRecord, Value>) -> Value {
      record[keyPath: field]
    }

    var isRunning: Bool { engine?.isRunning == true }

    /// What stands in the first place of ``Groups`` while there is no group: no animation.
    static var placeholder: Group {
      Group(id: 0, tag: 0, declaredAt: CallSite(fileID: "", line: 0))
    }
  }

  /// A group's fields that the frame never reads. Touched only under the dancer's lock (or,
  /// for a group that has left the state, by the one thread that took it out).
  final class GroupRecord: @unchecked Sendable {
    /// The current animation's tag.
    var tag: Int
    /// The animations chained after the current one with `then`.
    var chain: [ChainLink] = []
    /// A chained animation whose block runs later on its own isolation: the group stays for
    /// `ended()` and for calls until it is installed.
    var isBeginningLink = false
    /// The tag of the last animation told that it repeats forever while holding completions
    /// or chained animations, so that it is told once.
    var advisedTag = 0
    /// The tag of the last animation told that its repeats were cut in a frame, so that it is
    /// told once.
    var cutTag = 0
    /// The velocities of the properties this group took from moving groups as it was declared,
    /// for it to keep when it starts.
    var carried: CarriedVelocities?
    /// Whether the group's first animation ever became active: one that ends without it was
    /// declared and forgotten.
    var hasBeenActive = false
    /// The reduced-motion switch as the group's first animation became active, which every
    /// animation chained after it follows.
    var reducesMotion: Bool?
    /// Tasks waiting in `ended()` for this group.
    let waiters = Waiters<AnimatingPosition?>()
    /// Where the declaration was made, for the report of one never started.
    let declaredAt: CallSite

    init(tag: Int, declaredAt: CallSite) {
      self.tag = tag
      self.declaredAt = declaredAt
    }
  }

  struct State {
    // First: each frame reads them.
    var isDetached = false
    var isolation = HostIsolation.undeclared
    /// Whether there are groups after the first: the frame asks here, on the lock's first
    /// cache line, rather than the count's, past the first group.
    private(set) var hasMoreGroups = false
    /// Whether a getter has registered an access with Observation: the registrar's own flag,
    /// mirrored here for the common frame, which reads it under the lock it takes anyway
    /// rather than load the registrar's, on a cache line of its own.
    var isObserved = false
    /// In the order declared; the last is the one `host.dance` addresses. Grown and shrunk
    /// only through `append(_:)`, `removeGroup(at:)` and `removeAllGroups()`.
    var groups = Groups()
    /// The actor the host lives on, once an animation is declared.
    var actor: (any Actor)?
    /// Runs frames on `actor` when the clock ticks elsewhere: one callback for every frame, so
    /// that frames run in the order the clock made them, with no callback made per frame.
    var frames: IsolatedCallback<Void>?
    /// The newest frame's time while a frame is on its way to `actor`: a frame that comes
    /// meanwhile moves it on instead of queueing, so that a busy actor runs one frame when it
    /// is free, the newest, however many the clock made.
    var waitingFrame: Double?
    /// The clock's frames' place in the driver.
    var subscription: CancellationToken?
    var clock: FrameSource
    /// The tag of the last animation, for diagnostics once every group has ended.
    var lastTag = 0

    init(clock: FrameSource) {
      self.clock = clock
    }

    mutating func append(_ group: Group) {
      groups.append(group)
      hasMoreGroups = groups.count > 1
    }

    mutating func removeGroup(at index: Int) -> Group {
      defer { hasMoreGroups = groups.count > 1 }
      return groups.remove(at: index)
    }

    mutating func removeAllGroups() -> [Group] {
      hasMoreGroups = false
      return groups.removeAll()
    }

    func index(of selector: GroupSelector) -> Int? {
      switch selector {
      case .latest: groups.indices.last
      case .id(let id): groups.firstIndex { $0.id == id }
      }
    }
  }

  /// Work collected under the lock and done after unlocking.
  struct Aftermath: Sendable {
    var values: [FrameValues] = []
    var completed: [(AnimatingPosition, [AnimationCompletion])] = []
    /// Waiters of `ended()` to resume, with what.
    var resumed: [(Waiters<AnimatingPosition?>, AnimatingPosition?)] = []
    var next: [(group: Int, link: ChainLink)] = []
    var misuse: String?
    /// Groups that ended without ever starting: their tags and where they were declared.
    var forgotten: [(tag: Int, declaredAt: CallSite)] = []
    /// Animations whose repeats were cut in a frame, told once each: their tags and where they
    /// were declared.
    var cut: [(tag: Int, declaredAt: CallSite)] = []
    var subscription: CancellationToken?
    /// Groups that left, released with the aftermath, outside the lock.
    var released: [Group] = []
    /// Completions and chained animations that will never run, released outside the lock:
    /// they may hold the last reference to the host.
    var dropped: [AnimationCompletion] = []
    var droppedLinks: [ChainLink] = []

    mutating func merge(_ other: Aftermath) {
      values += other.values
      completed += other.completed
      resumed += other.resumed
      next += other.next
      forgotten += other.forgotten
      cut += other.cut
      misuse = misuse ?? other.misuse
      subscription = subscription ?? other.subscription
      released += other.released
      dropped += other.dropped
      droppedLinks += other.droppedLinks
    }
  }
}

extension Dancer.State {
  var isRunning: Bool { !isDetached && groups.contains { $0.isRunning } }
}
