import Foundation

/// Whether every number in `value` is finite: the check an animation makes of its start and
/// target once, when it is declared or starts, never per frame.
///
/// The library's values are read directly; any other `Interpolatable` through its stored
/// properties (a `Temperature`'s `celsius`), to a depth of eight, its floating-point ones
/// checked. A value with no floating-point numbers is finite.
func isFiniteValue(_ value: some Interpolatable) -> Bool {
  switch value {
  case let number as Double: return number.isFinite
  case let number as CGFloat: return number.isFinite
  case let number as Float: return number.isFinite
  case let point as CGPoint: return point.x.isFinite && point.y.isFinite
  case let size as CGSize: return size.width.isFinite && size.height.isFinite
  case let rect as CGRect:
    return rect.origin.x.isFinite && rect.origin.y.isFinite && rect.size.width.isFinite
      && rect.size.height.isFinite
  case let color as RGBAColor:
    return color.red.isFinite && color.green.isFinite && color.blue.isFinite
      && color.alpha.isFinite
  case let transform as AffineTransform2D:
    return [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty]
      .allSatisfy(\.isFinite)
  default: return isFiniteReflected(value, depth: 8)
  }
}

/// Whether the floating-point numbers among `value`'s stored properties are finite.
private func isFiniteReflected(_ value: Any, depth: Int) -> Bool {
  switch value {
  case let number as Double: return number.isFinite
  case let number as CGFloat: return number.isFinite
  case let number as Float: return number.isFinite
  case let point as CGPoint: return point.x.isFinite && point.y.isFinite
  default:
    guard depth > 0 else { return true }
    return Mirror(reflecting: value).children.allSatisfy {
      isFiniteReflected($0.value, depth: depth - 1)
    }
  }
}
