extension Duration {
  /// Whole nanoseconds, rounded toward zero and saturated at the bounds of `Int64`, because
  /// Dispatch counts in nanoseconds and a huge `Duration` must not trap when converted.
  var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    if carry { return seconds < 0 ? .min : .max }
    return total
  }
}
