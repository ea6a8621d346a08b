import AffixMotion
import AffixScheduling
import Foundation

/// One body's physics state, stored flat in the world's array so a step touches contiguous
/// memory and no objects.
struct BodyState {
  enum Kind: UInt8 {
    case free
    case attachment
    case snap
  }

  let id: Int
  var x: Double
  var y: Double
  var vx: Double = 0
  var vy: Double = 0

  var kind = Kind.free
  var isRigid = false
  var transition = SpringTransition.identity
  /// The anchor of an attachment, or the snap point.
  var targetX = 0.0
  var targetY = 0.0
  var offsetX = 0.0
  var offsetY = 0.0
  var length = 0.0
  /// The behaviour's spring as given, kept to describe the behaviour; `nil` when rigid.
  var spring: DampedSpring?

  var hasBounds = false
  var minX = 0.0
  var minY = 0.0
  var maxX = 0.0
  var maxY = 0.0
  /// Whether an attachment pulls the body past the bounds against a rubber band, which also
  /// lifts the walls so that the body can spring back from outside.
  var isBanded = false
  var bandCoefficient = 0.0
  var bandWidth = 0.0
  var bandHeight = 0.0
  /// The band as given, validated; it acts only while there are bounds.
  var rubberBand: RubberBand?

  var isMoving = false
  /// Whether the position changed since the host was last told.
  var hasMoved = false
  var handler: MoveHandler?

  init(id: Int, x: Double, y: Double, handler: MoveHandler?) {
    self.id = id
    self.x = x
    self.y = y
    self.handler = handler
  }

  var position: CGPoint { CGPoint(x, y) }

  var snapBehavior: Snap {
    Snap(to: CGPoint(targetX, targetY), spring: spring ?? .snap())
  }

  var attachmentBehavior: SpringAttachment {
    SpringAttachment(
      offset: CGPoint(offsetX, offsetY), anchor: CGPoint(targetX, targetY),
      length: length, spring: spring)
  }

  /// Where the behaviour holds the body's centre now, kept inside the bounds.
  @inline(__always)
  func target() -> (x: Double, y: Double) {
    var tx = targetX
    var ty = targetY
    if kind == .attachment {
      tx -= offsetX
      ty -= offsetY
      if length > 0 {
        // The attached point rests `length` away from the anchor, on the side it is now.
        let dx = x + offsetX - targetX
        let dy = y + offsetY - targetY
        let distance = (dx * dx + dy * dy).squareRoot()
        if distance > 0 {
          tx += dx / distance * length
          ty += dy / distance * length
        } else {
          ty += length
        }
      }
    }
    if hasBounds {
      if isBanded && kind == .attachment {
        tx = RubberBand.band(tx, minX, maxX, c: bandCoefficient, d: bandWidth)
        ty = RubberBand.band(ty, minY, maxY, c: bandCoefficient, d: bandHeight)
      } else {
        tx = min(max(tx, minX), maxX)
        ty = min(max(ty, minY), maxY)
      }
    }
    return (tx, ty)
  }

  /// Recomputes the band's figures after the bounds or the band changed.
  mutating func updateBand() {
    guard hasBounds, let band = rubberBand else {
      isBanded = false
      return
    }
    isBanded = true
    bandCoefficient = band.coefficient
    bandWidth = band.dimensions.map { Double($0.width) } ?? maxX - minX
    bandHeight = band.dimensions.map { Double($0.height) } ?? maxY - minY
  }

  /// Where an attachment must hold the centre for the body to show at `point`: the point
  /// itself, unless the band stretches it past the bounds.
  func unbanded(_ point: CGPoint) -> CGPoint {
    guard isBanded else { return point }
    let held = CGPoint(
      RubberBand.unband(Double(point.x), minX, maxX, c: bandCoefficient, d: bandWidth),
      RubberBand.unband(Double(point.y), minY, maxY, c: bandCoefficient, d: bandHeight))
    // A fling may carry the body farther out than any stretch shows; grabbed there, it is
    // pulled in to the band rather than held at an infinite overshoot.
    return held.isFinite ? held : point
  }

  /// Advances the body by one step of `dt` seconds; returns whether it came to rest.
  @inline(__always)
  mutating func step(dt: Double, restDistance: Double, restSpeed: Double) -> Bool {
    guard kind != .free else {
      isMoving = false
      return true
    }
    let (tx, ty) = target()
    if isRigid {
      vx = (tx - x) / dt
      vy = (ty - y) / dt
      x = tx
      y = ty
    } else {
      let ux = x - tx
      let uy = y - ty
      let m = transition
      x = tx + m.uu * ux + m.uv * vx
      vx = m.vu * ux + m.vv * vx
      y = ty + m.uu * uy + m.uv * vy
      vy = m.vu * uy + m.vv * vy
    }
    if hasBounds && !isBanded {
      // Walls stop the body: it keeps sliding along them but loses the speed into them.
      if x < minX {
        x = minX
        vx = max(vx, 0)
      } else if x > maxX {
        x = maxX
        vx = min(vx, 0)
      }
      if y < minY {
        y = minY
        vy = max(vy, 0)
      } else if y > maxY {
        y = maxY
        vy = min(vy, 0)
      }
    }
    hasMoved = true
    let (ex, ey) = (x - tx, y - ty)
    if ex * ex + ey * ey <= restDistance * restDistance
      && vx * vx + vy * vy <= restSpeed * restSpeed
    {
      x = tx
      y = ty
      vx = 0
      vy = 0
      isMoving = false
      return true
    }
    return false
  }
}
