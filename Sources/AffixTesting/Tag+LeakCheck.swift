public import Testing

extension Tag {
  /// Marks a test as a leak check: a test that pins who owns what and that everything is
  /// released when its owner goes.
  ///
  /// `swift package leak-check` runs the `LeakCheckTests` target; tag its tests so that they can
  /// also be picked out of a larger run with `swift test --filter .tags:leakCheck`.
  ///
  /// ```swift
  /// @Test(.tags(.leakCheck))
  /// func releasingTheHostReleasesItsSpinner() { ... }
  /// ```
  @Tag public static var leakCheck: Tag
}
