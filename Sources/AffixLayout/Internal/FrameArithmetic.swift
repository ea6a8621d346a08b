/// One pass of arithmetic from pinned values to a frame, with no solver: per axis, the last
/// value given for each of start, end, centre and length, and two of them fix the axis.
struct FrameArithmetic {
  /// The values pinned on one axis, the last one given winning.
  struct Axis: Equatable {
    var start: Double?
    var end: Double?
    var center: Double?
    var length: Double?

    /// The origin and length these values give, keeping what they leave open from `origin`
    /// and `length`; `clamped` when the values gave a negative length, made zero.
    func resolve(origin: Double, length currentLength: Double)
      -> (origin: Double, length: Double, clamped: Bool)
    {
      var size = length ?? currentLength
      if length == nil {
        if let start, let end {
          size = end - start
        } else if let start, let center {
          size = 2 * (center - start)
        } else if let end, let center {
          size = 2 * (end - center)
        }
      }
      var clamped = false
      if !(size >= 0) {
        clamped = true
        size = 0
      }
      let from: Double
      if let start {
        from = start
      } else if let center {
        from = center - size / 2
      } else if let end {
        from = end - size
      } else {
        from = origin
      }
      return (from, size, clamped)
    }
  }

  var horizontal = Axis()
  var vertical = Axis()

  /// Pins `attribute` to `value`, replacing an earlier value of the same attribute.
  mutating func pin(_ attribute: LayoutAttribute, to value: Double) {
    switch attribute {
    case .leading: horizontal.start = value
    case .trailing: horizontal.end = value
    case .centerX: horizontal.center = value
    case .width: horizontal.length = value
    case .top: vertical.start = value
    case .bottom: vertical.end = value
    case .centerY: vertical.center = value
    case .height: vertical.length = value
    }
  }

  /// The frame the pinned values give, starting from `current` for what they leave open, and
  /// whether a negative length was made zero.
  func frame(from current: LayoutRect) -> (frame: LayoutRect, clamped: Bool) {
    let x = horizontal.resolve(origin: finite(current.x), length: length(current.width))
    let y = vertical.resolve(origin: finite(current.y), length: length(current.height))
    return (
      LayoutRect(x: x.origin, y: y.origin, width: x.length, height: y.length),
      x.clamped || y.clamped
    )
  }

  private func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
  private func length(_ value: Double) -> Double { value.isFinite && value >= 0 ? value : 0 }
}
