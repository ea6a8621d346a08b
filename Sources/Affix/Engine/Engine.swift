// The engine's contract: all the face (keys, `Associations`, policies, observation,
// capabilities, moments, weak references, everything outside `Sources/Affix/Engine/`) asks of
// the engine, in one place. The face calls nothing else in this folder.
//
// The engine keeps each host's values in an ``AssociationStorage``: found in the shared table by
// the host's address, or owned by the host (``AssociationOwner``). The operations:
//
// | operation | where                                                                   |
// |-----------|-------------------------------------------------------------------------|
// | find      | `Engine.storageBits(of:)`: the storage of a host, if it has one; no lock |
// | make      | `Engine.makeStorage(of:)`: the storage of a host, created on first use   |
// | read      | `HostStorage.value(for:)`, `inlineBits(for:)`, `object(for:)`             |
// | write     | `HostStorage.exchange`, `insertIfAbsent`, `compareAndExchange`, the in-place stores |
// | remove    | a write of `nil`; what a write takes out goes to `Engine.retire(_:)`      |
// | list      | `HostStorage.keyIDs()`, `capabilityPayloads()`, the observers             |
// | sweep     | `Engine.sweep()`, `Engine.statistics`, `Engine.deinitGrace`              |
// | hand over | `Engine.isOwnerCurrent(_:)`, `Engine.handOver(_:to:)`: release on an isolation |
//
// Which path serves a host (pinned, weak, hooked; see ``HostKind``) is chosen in one place,
// `HostKind.of(_:)`, from the host's kind and, with the TestSeams trait, `AFFIX_HOST_MODE`.
// The face never asks which path a host took, except where the answer is what it reports
// (`Engine.kind(of:)`: a host the core cannot serve).
//
// What the engine promises the face: a write returns what it took out, and that is released
// only after every read that could still be taking it (`Engine.retire(_:)`); no user code runs
// under an engine lock; a host's values live until the host dies, and a dead host's values are
// never found for a new object at its address. How it keeps those promises is on the pages of
// `Docs/Internals/`.

/// The engine's entry points for the face: find and make a host's storage, release what a write
/// took out, and sweep. See the table at the top of this file.
@usableFromInline
enum Engine {
  /// The address of `host`'s storage in the shared table as bits, or 0 when it has none.
  @inlinable @inline(__always) @_effects(releasenone)
  static func storageBits(of host: AnyObject) -> UInt {
    HostTable.storageBits(of: host)
  }

  /// The storage of `host`, created on first use.
  @inlinable @inline(__always)
  static func makeStorage(of host: AnyObject) -> AssociationStorage {
    HostTable.makeStorage(of: host)
  }

  /// Releases what a write took out, once no read can still be taking it.
  @inlinable @inline(__always)
  static func retire(_ payload: consuming Payload?) {
    Retirement.retire(payload)
  }

  /// Which path the engine takes for `host`, or why it cannot serve it.
  static func kind(of host: AnyObject) -> HostKind {
    HostKind.of(host)
  }

  /// Releases every dead host's values now, on this thread; returns how many hosts it swept.
  static func sweep() -> Int {
    HostTable.sweep()
  }

  /// Takes every dead host off the tables and queues its values, without waiting for them.
  static func takeDeadHostsOff() -> Int {
    HostTable.takeDeadHostsOff()
  }

  /// Counts the hosts and values in the table now.
  static var statistics: AssociationTable.Statistics {
    HostTable.statistics()
  }

  /// See ``AssociationTable/deinitGrace``.
  static var deinitGrace: Duration {
    get { HostTable.deinitGrace }
    set { HostTable.deinitGrace = newValue }
  }

  /// Whether the object at `address` is in its deinit and held `unowned` beyond the core's pins.
  static func isHeldInDeinit(at address: UnsafeMutableRawPointer) -> Bool {
    HostTable.isHeldInDeinit(at: address)
  }

  /// Runs `body` with no background sweep starting meanwhile.
  static func withBackgroundSweepsHeld<Result>(_ body: () throws -> Result) rethrows -> Result {
    try BackgroundSweeper.whileHeld(body)
  }

  /// Counts a pin a ``WeakReference`` took on the object at `address`, so that a sweep can
  /// tell a host whose deinit has ended from one still in it; once the pin is taken.
  static func countPin(at address: UnsafeMutableRawPointer) {
    ForeignPins.add(address)
  }

  /// Uncounts a pin counted with ``countPin(at:)``; before the pin is dropped.
  static func uncountPin(at address: UnsafeMutableRawPointer) {
    ForeignPins.remove(address)
  }

  /// Whether `address` is a tagged pointer: an object with no memory, never deallocated.
  static func isTaggedPointer(_ address: UInt) -> Bool {
    HostKind.isTaggedPointer(address)
  }

  /// Whether the caller runs on `isolation`, where what it keeps for it may be released at once.
  static func isOwnerCurrent(_ isolation: any Actor) -> Bool {
    OwnerRelease.isCurrent(isolation)
  }

  /// Hands `value` to `isolation`, which releases it there; never waits for it.
  static func handOver<Value>(_ value: consuming Value, to isolation: any Actor) {
    OwnerRelease.handOver(value, to: isolation)
  }

  /// Whether this process is the child of a `fork()`, where the engine runs nothing on other
  /// threads.
  static var isForkChild: Bool {
    ForkHandlers.isChild
  }
}

/// What the face reads, writes and lists in one host's storage: the requirements
/// ``AssociationStorage`` serves. Written out so that the contract is checked by the compiler.
protocol HostStorage: AnyObject {
  /// The value under `key`, or nil.
  func value<Value>(for key: KeyHandle<Value>) -> Value?
  /// The inline bits stored under `keyID`, or nil when the value is an object or absent.
  func inlineBits(for keyID: UInt) -> UInt?
  /// The object stored under `keyID`, retained, or nil.
  func object(for keyID: UInt) -> Payload?
  /// Stores `payload` (nil removes); returns what it replaced and the observers to call.
  func exchange(_ payload: Payload?, for keyID: UInt) -> (
    old: Payload?, observers: ObserverCalls?
  )
  /// Stores `payload` unless a value is there; returns the value stored after the call.
  func insertIfAbsent(_ payload: Payload, for keyID: UInt) -> (
    stored: Payload, inserted: Bool, observers: ObserverCalls?
  )
  /// Stores `payload` if `expected` is what is stored.
  func compareAndExchange(_ expected: Payload?, with payload: Payload?, for keyID: UInt) -> (
    exchanged: Bool, old: Payload?, observers: ObserverCalls?
  )
  /// Stores `payload` if the object stored is `expected`; returns what it took out.
  func exchangeIfSame(_ expected: Payload, with payload: Payload?, for keyID: UInt) -> Payload?
  /// Overwrites an inline value in place; false when there is none to overwrite.
  func storedInPlace(_ bits: UInt, for keyID: UInt) -> Bool
  /// Overwrites an inline value in place if it is `expected`.
  func exchangedInPlace(_ expected: UInt, with bits: UInt, for keyID: UInt) -> Bool?
  /// The key IDs that hold a value.
  func keyIDs() -> [UInt]
  /// The payloads that are capabilities.
  func capabilityPayloads() -> [Payload]
  /// Adds an observer; returns its first turn when it takes one.
  func addObserver(_ observer: ObserverRegistration, takingFirstTurn: Bool) -> UInt64?
  /// Removes an observer, releasing it after the storage's lock.
  func removeObserver(_ observer: ObserverRegistration)
}

extension AssociationStorage: HostStorage {}
