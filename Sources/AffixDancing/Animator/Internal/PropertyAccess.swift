import Affix

/// What a track asks of the property it animates.
@usableFromInline
package enum PropertyOperation: Sendable {
  /// Store the key path, which names the property, as an `AnyKeyPath` at the values' address.
  case identify
  /// Initialize `values[0]` with the property's current value.
  case read
  /// Write the value `progress` of the way from `values[0]` to `values[1]`.
  case write
}

/// The closure through which a track names, reads and writes its property: the host, what to
/// do, the progress to write at, and the address of the track's values. Values are passed as
/// an untyped pointer so that a track, which holds no `Value`, can call the closure directly.
@usableFromInline
package typealias PropertyAccessBody =
  @Sendable (AnyObject, PropertyOperation, Double, UnsafeMutableRawPointer) -> Void

/// One property of a host, reached the three ways an animation needs it (named, read, written)
/// through a single closure that captures the key path and nothing else.
///
/// It is made by the `dance` proxy's setter, which is inlined where the user writes
/// `$0.x = ...`. There the key path is a literal and the host and value types are known, and a
/// closure whose only capture is a literal key path is specialized on it (constant capture
/// propagation) and its key-path reads and writes folded into calls of the property's accessors:
/// a plain load and store for a stored property of a final class, the getter and setter (with
/// their observers) otherwise. Per frame a write then costs a few nanoseconds instead of the
/// 150-250 of `swift_setAtReferenceWritableKeyPath`. Any other use of the key path in the setter
/// would defeat that (the optimizer requires the closure to be its only user), which is why
/// naming and reading go through the closure too.
@usableFromInline
package struct PropertyAccess<Value: Interpolatable>: Sendable {
  @usableFromInline
  let body: PropertyAccessBody

  /// The property `keyPath` names on hosts of type `Host`; it may only be applied to such
  /// hosts.
  @inlinable
  package init<Host: AnyObject>(_ keyPath: ReferenceWritableKeyPath<Host, Value>) {
    let property = PropertyKeyPath(keyPath)
    body = { object, operation, progress, raw in
      let values = raw.assumingMemoryBound(to: Value.self)
      // Applied only to the host the track was recorded on, a `Host`: a dancer records and
      // writes its own host alone. Checked in debug builds.
      let host = unsafeDowncast(object, to: Host.self)
      switch operation {
      case .identify:
        // Through a closure of its own: see `materialize(_:)`.
        raw.initializeMemory(as: AnyKeyPath.self, to: materialize { property.keyPath })
      case .read:
        values.initialize(to: host[keyPath: property.keyPath])
      case .write:
        host[keyPath: property.keyPath] = Value.interpolate(
          from: values[0], to: values[1], fraction: progress)
      }
    }
  }

  /// The key path, as the identity of the property.
  func identity(on host: AnyObject) -> AnyKeyPath {
    let scratch = UnsafeMutablePointer<AnyKeyPath>.allocate(capacity: 1)
    defer { scratch.deallocate() }
    body(host, .identify, 0, UnsafeMutableRawPointer(scratch))
    return scratch.move()
  }

  /// The property's current value on `host`.
  func read(on host: AnyObject) -> Value {
    let scratch = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    defer { scratch.deallocate() }
    body(host, .read, 0, UnsafeMutableRawPointer(scratch))
    return scratch.move()
  }
}

/// The key path `make` returns, made out of line.
///
/// Specialized on a literal key path, the property's closure still makes the key path object
/// whenever a branch of it needs one, and it makes it on entry, before it knows which branch it
/// takes: every frame's write would look the object up and retain and release it, two atomic
/// operations, for the naming alone. Handed to this function inside a closure of its own, the
/// key path is specialized into that closure instead, so that only naming makes it.
@usableFromInline @inline(never)
func materialize(_ make: () -> AnyKeyPath) -> AnyKeyPath {
  make()
}

/// A key path the frame source's context may use.
///
/// `@unchecked Sendable`: key paths are immutable, and those the `dance` proxy receives name a
/// property (dynamic member lookup makes no subscript components), so they capture no values.
@usableFromInline
struct PropertyKeyPath<Root, Value>: @unchecked Sendable {
  @usableFromInline
  let keyPath: ReferenceWritableKeyPath<Root, Value>

  @inlinable
  init(_ keyPath: ReferenceWritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
  }
}

/// Where a track's start and end values are: a fixed address, so that a frame hands the
/// property's closure a pointer and copies no value.
///
/// `@unchecked Sendable`: the values are written once, at initialization, and only read after;
/// they are `Sendable`.
class TrackValues: @unchecked Sendable {
  let address: UnsafeMutableRawPointer

  init(address: UnsafeMutableRawPointer) {
    self.address = address
  }

  /// These values with the start read again from the property on `host`, through `body`.
  func rereadingStart(through body: PropertyAccessBody, on host: AnyObject) -> TrackValues {
    self
  }

  /// Whether the track adds a carried velocity to its motion (see `CarryingTrackEnds`).
  var carriesVelocity: Bool { false }

  /// Whether a start that was not finite was replaced and reported where it was declared.
  var startReported: Bool { false }

  /// The property's velocity when the track's progress changes by `progressRate` and its carry
  /// by `carryRate` per second: two values whose difference is the change per second.
  func velocity(progressRate: Double, carryRate: Double) -> TrackValues? {
    nil
  }

  /// These values carrying `velocity` (made by `velocity(progressRate:carryRate:)` for a
  /// property of the same type), or nil when the types differ.
  func carrying(_ velocity: TrackValues) -> TrackValues? {
    nil
  }

  /// Writes the value at `progress`, plus `carry` seconds of the carried velocity, into `host`.
  func write(
    through body: PropertyAccessBody, to host: AnyObject, progress: Double, carry: Double
  ) {
    body(host, .write, progress, address)
  }
}

/// The start and end values of a track of `Value`s, which it owns.
final class TrackEnds<Value: Interpolatable>: TrackValues, @unchecked Sendable {
  /// Whether reading the start again moves the target with it, keeping the distance between
  /// them: a decay's target is where the motion from its start comes to rest.
  private let keepsDistance: Bool
  /// Whether a start that was not finite has been reported (where the animation was declared).
  private let reportedStart: Bool

  override var startReported: Bool { reportedStart }

  init(from: Value, to: Value, keepsDistance: Bool = false, startReported: Bool = false) {
    self.keepsDistance = keepsDistance
    reportedStart = startReported
    let values = UnsafeMutablePointer<Value>.allocate(capacity: 2)
    values.initialize(to: from)
    (values + 1).initialize(to: to)
    super.init(address: UnsafeMutableRawPointer(values))
  }

  deinit {
    address.assumingMemoryBound(to: Value.self).deinitialize(count: 2)
    address.deallocate()
  }

  override func rereadingStart(through body: PropertyAccessBody, on host: AnyObject)
    -> TrackValues
  {
    let scratch = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    defer { scratch.deallocate() }
    body(host, .read, 0, UnsafeMutableRawPointer(scratch))
    let start = scratch.move()
    let values = address.assumingMemoryBound(to: Value.self)
    // A value made not finite since the animation was declared is never interpolated from:
    // the property is written its target from the first frame.
    guard isFiniteValue(start) else {
      if !reportedStart {
        Diagnostics.report(
          subsystem: "dance",
          message: "start: a property starts at \(start), which is not finite; it is set to "
            + "its target \(values[1]) from the first frame instead of moving there")
      }
      return TrackEnds(
        from: values[1], to: values[1], keepsDistance: keepsDistance, startReported: true)
    }
    let target = keepsDistance ? values[1].offset(by: 1, along: values[0], start) : values[1]
    return TrackEnds(from: start, to: target, keepsDistance: keepsDistance)
  }

  override func velocity(progressRate: Double, carryRate: Double) -> TrackValues? {
    let values = address.assumingMemoryBound(to: Value.self)
    return TrackEnds(
      from: values[0],
      to: Value.interpolate(from: values[0], to: values[1], fraction: progressRate))
  }

  override func carrying(_ velocity: TrackValues) -> TrackValues? {
    guard let velocity = velocity as? TrackEnds<Value> else { return nil }
    let values = address.assumingMemoryBound(to: Value.self)
    let change = velocity.address.assumingMemoryBound(to: Value.self)
    return CarryingTrackEnds(
      from: values[0], to: values[1], velocityFrom: change[0], velocityTo: change[1])
  }
}
