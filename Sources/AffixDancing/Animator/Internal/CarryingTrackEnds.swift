/// The values of a track that keeps the velocity its property had when the animation started:
/// from, to, and two values whose difference is that velocity (change per second).
///
/// The motion is the spring's from `from` to `to` plus the velocity times the spring's response
/// to it (`ResolvedTiming.carry(at:progress:)`): a damped spring is linear, so the sum is the
/// motion of a spring released from `from` with that velocity, component by component, whatever
/// direction the velocity points in. A velocity across the line to the target is kept too,
/// which a single unit-space velocity along that line could not express.
///
/// `Interpolatable` offers blending alone, so the sum is built from blends: for values that
/// blend linearly (numbers, points, colours) it is exact, for transforms it holds for their
/// parts.
///
/// `@unchecked Sendable`: as its superclass, written once before it is shared.
final class CarryingTrackEnds<Value: Interpolatable>: TrackValues, @unchecked Sendable {
  init(from: Value, to: Value, velocityFrom: Value, velocityTo: Value) {
    let values = UnsafeMutablePointer<Value>.allocate(capacity: 4)
    values.initialize(to: from)
    (values + 1).initialize(to: to)
    (values + 2).initialize(to: velocityFrom)
    (values + 3).initialize(to: velocityTo)
    super.init(address: UnsafeMutableRawPointer(values))
  }

  deinit {
    address.assumingMemoryBound(to: Value.self).deinitialize(count: 4)
    address.deallocate()
  }

  override var carriesVelocity: Bool { true }

  override func velocity(progressRate: Double, carryRate: Double) -> TrackValues? {
    let values = address.assumingMemoryBound(to: Value.self)
    let along = Value.interpolate(from: values[0], to: values[1], fraction: progressRate)
    return TrackEnds(
      from: values[0], to: along.offset(by: carryRate, along: values[2], values[3]))
  }

  override func write(
    through body: PropertyAccessBody, to host: AnyObject, progress: Double, carry: Double
  ) {
    // The end of the motion, and any moment the carried term is nil, writes the plain blend.
    guard carry != 0 else { return body(host, .write, progress, address) }
    let values = address.assumingMemoryBound(to: Value.self)
    let value = Value.interpolate(from: values[0], to: values[1], fraction: progress)
      .offset(by: carry, along: values[2], values[3])
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 2) { scratch in
      // A blend of a value with itself at 0 is the value: the write runs the property's own
      // code path with no second kind of operation.
      scratch.initialize(repeating: value)
      // swift-format-ignore: NeverForceUnwrap
      body(host, .write, 0, UnsafeMutableRawPointer(scratch.baseAddress!))  // capacity 2
      scratch.deinitialize()
    }
  }
}

extension Interpolatable {
  /// `self + k (q - p)`, from blends alone: `m = p + k (q - p)`, then `2 ((self + m) / 2) - p`.
  func offset(by k: Double, along p: Self, _ q: Self) -> Self {
    let moved = Self.interpolate(from: p, to: q, fraction: k)
    let middle = Self.interpolate(from: self, to: moved, fraction: 0.5)
    return Self.interpolate(from: p, to: middle, fraction: 2)
  }
}
