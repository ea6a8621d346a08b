extension Duration {
  /// Whole nanoseconds, rounded toward zero and saturated at the bounds of `Int64`, because
  /// Dispatch counts in nanoseconds and a huge `Duration` must not trap when converted (nor
  /// read its `components`, which trap past `Int64.max` seconds).
  var saturatingNanoseconds: Int64 {
    let nanoseconds = attoseconds / 1_000_000_000
    return Int64(clamping: nanoseconds)
  }

  /// `self + other`, held at the largest or smallest `Duration` instead of trapping: a time
  /// near the top of the range plus a delay is still "later", never a crash.
  func saturatingAdding(_ other: Duration) -> Duration {
    let (sum, overflow) = attoseconds.addingReportingOverflow(other.attoseconds)
    guard overflow else { return Duration(attoseconds: sum) }
    return Duration(attoseconds: other.attoseconds > 0 ? .max : .min)
  }

  /// `self - other`, held at the bounds of `Duration` instead of trapping.
  func saturatingSubtracting(_ other: Duration) -> Duration {
    let (difference, overflow) = attoseconds.subtractingReportingOverflow(other.attoseconds)
    guard overflow else { return Duration(attoseconds: difference) }
    return Duration(attoseconds: other.attoseconds < 0 ? .max : .min)
  }
}
