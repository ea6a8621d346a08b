import Foundation

/// A number as the scenes print it: one decimal.
func decimal(_ value: some BinaryFloatingPoint) -> String {
  String(format: "%.1f", Double(value))
}

/// A point as the scenes print it: `(12.0, 30.5)`.
func describe(_ point: CGPoint) -> String {
  "(\(decimal(point.x)), \(decimal(point.y)))"
}
