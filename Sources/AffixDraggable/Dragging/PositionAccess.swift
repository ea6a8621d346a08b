public import Foundation

/// The centre property of a host, read and written through a closure that captures the key
/// path and nothing else.
///
/// Made where the caller writes the key path, since
/// `DragController.attach(to:center:snapPoint:snap:bounds:rubberBand:attachment:world:)`
/// is inlined
/// there and hands the key path on without keeping a reference of its own. The closure is then
/// the key path's only user, and the optimizer specializes it on the literal key path: its reads
/// and writes become calls of the property's accessors, a few nanoseconds a frame instead of the
/// hundreds of a run-time key-path write. Code that is not optimized, or a key path that is not
/// a literal, still works, at the run time's cost.
@usableFromInline
struct PositionAccess: Sendable {
  /// Reads the position into the pointer, or writes it from there when the flag is set.
  @usableFromInline
  let body: @Sendable (AnyObject, UnsafeMutablePointer<CGPoint>, Bool) -> Void

  /// The property `keyPath` names; it may only be applied to hosts of type `Host`.
  @inlinable
  init<Host: AnyObject>(
    _ keyPath: consuming any ReferenceWritableKeyPath<Host, CGPoint> & Sendable
  ) {
    let keyPath = keyPath
    body = { object, point, writes in
      // Applied only to the host the controller was attached to, a `Host`. Checked in debug
      // builds.
      let host = unsafeDowncast(object, to: Host.self)
      if writes {
        host[keyPath: keyPath] = point.pointee
      } else {
        point.pointee = host[keyPath: keyPath]
      }
    }
  }

  func read(from host: AnyObject) -> CGPoint {
    var point = CGPoint.zero
    body(host, &point, false)
    return point
  }

  func write(_ point: CGPoint, to host: AnyObject) {
    var point = point
    body(host, &point, true)
  }
}
