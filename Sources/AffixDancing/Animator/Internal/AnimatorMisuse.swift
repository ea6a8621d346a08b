/// A call the engine refused because it made no sense in the current state or with the given
/// argument; the engine is left exactly as it was.
package struct AnimatorMisuse: Error, Equatable, CustomStringConvertible {
  package let description: String

  package init(_ description: String) {
    self.description = description
  }
}
