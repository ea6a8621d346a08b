/// Counts the pins that ``WeakReference``s hold on objects, so that a sweep can tell a host
/// whose deinit has finished (its unowned count is then exactly its pins) from one still
/// inside it. A pin is counted only after it is taken and uncounted before it is dropped, so a
/// count read concurrently never makes a live host look dead.
enum ForeignPins {
  private static let counts = Locked<[UInt: Int]>([:], processWide: .foreignPins)

  static func add(_ object: UnsafeMutableRawPointer) {
    counts.withLock { $0[UInt(bitPattern: object), default: 0] += 1 }
  }

  static func remove(_ object: UnsafeMutableRawPointer) {
    counts.withLock { counts in
      let key = UInt(bitPattern: object)
      let remaining = (counts[key] ?? 1) - 1
      counts[key] = remaining > 0 ? remaining : nil
    }
  }

  static func count(at object: UnsafeMutableRawPointer) -> Int {
    counts.withLock { $0[UInt(bitPattern: object)] ?? 0 }
  }
}
